#pragma once

#include "TrainConfig.h"

#include <cstdint>
#include <string>

namespace segstudio::engine {
inline namespace training {

// What a resume of a run folder trains (issue 65.1, out of Trainer): the run's recorded
// configuration, from its last checkpoint, or from its config.json alone when it stopped (killed,
// a power cut) before its first checkpoint, in which case it starts again from the beginning as
// the same run. The overrides a resume may give replace the recorded values; --epochs is the
// run's total and is refused at or below the epochs it has trained.
// Requirements: none (reads the folder's files). Guarantees: EngineError naming the folder or the
// file and what is wrong; the folder is not changed.
struct ResumedRun {
    struct Overrides {
        int epochs = 0;                    // 0: the recorded ones
        std::string device;                // empty: the recorded one
        std::int64_t maxIterations = -1;   // < 0: the recorded
        int threads = -1;                  // < 0: the recorded
        double timeBudgetSeconds = -1;     // < 0: the recorded
    };

    TrainConfig config;
    bool checkpointed = false;  // false: config.json only, the run starts again
    std::string note;           // said when the session starts (empty: nothing to say)

    static ResumedRun of(const std::string& runDir, const Overrides& overrides);
};

}  // namespace training
}  // namespace segstudio::engine
