#include "ResumedRun.h"

#include "engine/models/Checkpoint.h"
#include "engine/runtime/EngineError.h"
#include "run/RunLayout.h"

#include <filesystem>

namespace segstudio::engine {
inline namespace training {

namespace {

TrainConfig configOfCheckpoint(const std::string& checkpoint)
{
    const auto state = Checkpoint::readState(checkpoint);
    if (!state.contains("config"))
        throw EngineError(checkpoint + ": checkpoint state has no training configuration");
    return recordedRunConfigFromJson(state.at("config"), checkpoint);
}

// --epochs on a resume is the run's total: one at or below what the run has trained would
// train nothing and record epochs going backwards, so it is refused, saying what was done.
void requireEpochsAhead(const std::string& checkpoint, int epochs)
{
    const int done = Checkpoint::readState(checkpoint).value("epoch", 0);
    if (epochs <= done)
        throw EngineError(checkpoint + ": the run has trained " + std::to_string(done) + " epoch(s); --epochs " +
                          std::to_string(epochs) + " is the run's total, not more to train: give more than " +
                          std::to_string(done) + " (e.g. --epochs " + std::to_string(done + 10) + "), or a --time-budget");
}

void apply(TrainConfig& config, const ResumedRun::Overrides& overrides)
{
    if (overrides.epochs > 0)
        config.epochs = overrides.epochs;
    if (!overrides.device.empty())
        config.device = overrides.device;
    if (overrides.maxIterations >= 0)
        config.maxIterations = overrides.maxIterations;
    if (overrides.threads >= 0)
        config.threads = overrides.threads;
    if (overrides.timeBudgetSeconds >= 0)
        config.timeBudgetSeconds = overrides.timeBudgetSeconds;
}

}  // namespace

ResumedRun ResumedRun::of(const std::string& runDir, const Overrides& overrides)
{
    const run::RunLayout files(runDir);
    ResumedRun resumed;
    resumed.checkpointed = files.canResume();
    const std::string source = resumed.checkpointed ? files.lastCheckpoint().string() : files.configFile().string();
    if (!resumed.checkpointed && !std::filesystem::exists(files.configFile()))
        throw EngineError(runDir + ": nothing to resume (no checkpoints/last.pt, no config.json); start a new run with "
                                   "segstudio-train train --train-pack PACK -o " + runDir);
    resumed.config = resumed.checkpointed ? configOfCheckpoint(source) : loadRecordedRunConfig(source);
    resumed.config.runDir = runDir;
    if (overrides.epochs > 0 && resumed.checkpointed)
        requireEpochsAhead(source, overrides.epochs);
    apply(resumed.config, overrides);
    if (!resumed.checkpointed)
        resumed.note = runDir + " stopped before its first checkpoint: starting it again from the beginning";
    return resumed;
}

}  // namespace training
}  // namespace segstudio::engine
