#include "RunFolderClaim.h"

#include "engine/runtime/EngineError.h"
#include "run/RunLayout.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace segstudio::engine {
inline namespace training {

std::unique_ptr<run::RunLock> RunFolderClaim::claim(const std::string& runDir, bool resuming)
{
    if (runDir.empty())
        throw EngineError("training configuration: runDir is empty");
    const run::RunLayout files(runDir);
    if (!resuming && !files.canResume()) {  // (a run there is refused below, with its own words)
        if (const auto foreign = files.foreignEntry())
            throw EngineError(foreign->string() + ": not a file of a SegStudio run; a run never writes beside it (train "
                                                  "into a new or empty folder, or move it away)");
    }
    std::error_code error;
    fs::create_directories(files.checkpointsFolder(), error);
    if (error)
        throw EngineError(runDir + ": cannot create the run directory (" + error.message() + ")");
    auto lock = std::make_unique<run::RunLock>(runDir);  // before anything in the folder changes
    if (!resuming) {
        if (files.canResume())
            throw EngineError(runDir + ": already holds a run; resume it (--resume) or choose another directory");
        fs::remove(files.metricsFile(), error);  // leftovers of a run that never checkpointed
    }
    return lock;
}

}  // namespace training
}  // namespace segstudio::engine
