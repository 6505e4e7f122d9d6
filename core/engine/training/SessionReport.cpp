#include "SessionReport.h"

#include "engine/runtime/Formatted.h"

#include <cmath>

namespace segstudio::engine {
inline namespace training {

std::string SessionReport::started(const Start& start)
{
    const std::string ranks =
        start.backend.empty() ? std::string() : " x " + std::to_string(start.world) + " ranks (" + start.backend + ")";
    return "training " + start.model + " on " + start.device + ranks + (start.amp == "none" ? "" : " in " + start.amp) +
           ": " + std::to_string(start.images) + " images " + std::to_string(start.height) + "x" +
           std::to_string(start.width) + ", " + std::to_string(start.classes) + " classes, " +
           std::to_string(start.batchesPerEpoch) + " batches/epoch, from epoch " + std::to_string(start.epoch + 1) +
           " iteration " + std::to_string(start.iteration);
}

std::string SessionReport::budgetStarted(double budgetSeconds, double usedSeconds)
{
    return formatted("time budget %.0f s, %.0f s of it used: the first steps measure the pace, then the plan follows",
                     budgetSeconds, usedSeconds);
}

std::string SessionReport::finished(int epochs, std::int64_t iterations, double lastLoss, std::optional<double> bestMeanIoU,
                                    std::optional<Budget> budget)
{
    const std::string validation =
        bestMeanIoU ? formatted("best val mIoU %.4f", *bestMeanIoU) : std::string("no validation (no validation pack)");
    const std::string spent = budget ? formatted("; %.0f s of the %.0f s budget (first planned %.0f iterations)",
                                                 budget->elapsedSeconds, budget->budgetSeconds,
                                                 double(budget->firstPlannedIterations))
                                     : std::string();
    return formatted("finished: %.0f epochs, %.0f iterations, last loss %.4f, ", epochs, double(iterations), lastLoss) +
           validation + spent;
}

std::string SessionReport::stopped(int epoch, std::int64_t iteration, const std::string& runDir)
{
    return "stopped at epoch " + std::to_string(epoch + 1) + " iteration " + std::to_string(iteration) +
           "; checkpoint written, continue with --resume " + runDir;
}

std::string SessionReport::diverged(double lossValue, std::int64_t iteration, std::int64_t epoch)
{
    const std::string what = std::isnan(lossValue)   ? "NaN"
                             : std::isinf(lossValue) ? "infinite"
                                                     : "NaN/infinite on another rank";
    return "loss became " + what + " at iteration " + std::to_string(iteration + 1) + " (epoch " +
           std::to_string(epoch + 1) + "); stopped, the last good checkpoint is kept. Try a lower learning rate.";
}

run::RunState SessionReport::stateOf(TrainOutcome::Status status)
{
    switch (status) {
    case TrainOutcome::Status::Finished:
        return run::RunState::Finished;
    case TrainOutcome::Status::Stopped:
        return run::RunState::Stopped;
    case TrainOutcome::Status::Diverged:
        break;
    }
    return run::RunState::Failed;
}

}  // namespace training
}  // namespace segstudio::engine
