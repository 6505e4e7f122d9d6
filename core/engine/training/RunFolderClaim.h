#pragma once

#include "run/RunLock.h"

#include <memory>
#include <string>

namespace segstudio::engine {
inline namespace training {

// A run folder taken for training (issue 65.1, out of Trainer): created with its checkpoints
// folder, refused when it holds anything but a run's own files (a run never writes beside a
// user's files), locked before anything in it changes; a new run is refused where a run that
// can be resumed already lives, and a leftover metrics file of a run killed before its first
// checkpoint is removed.
// Guarantees: EngineError naming the folder (or the foreign file) and what to do; on an error
// nothing in the folder was changed beyond creating it.
class RunFolderClaim {
public:
    static std::unique_ptr<run::RunLock> claim(const std::string& runDir, bool resuming);
};

}  // namespace training
}  // namespace segstudio::engine
