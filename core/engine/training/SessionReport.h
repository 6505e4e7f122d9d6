#pragma once

#include "Trainer.h"
#include "run/RunState.h"

#include <cstdint>
#include <optional>
#include <string>

namespace segstudio::engine {
inline namespace training {

// What a training session says in its log (issue 65.1, out of Trainer): its start, its end and a
// divergence, worded from plain figures, so a test reads them without training.
// Guarantees: the words the GUI, the CLI's tests and the users' scripts look for stay as they were
// ("x 2 ranks (gloo)", "finished: N epochs, M iterations", "--resume DIR", "loss became NaN").
class SessionReport {
public:
    struct Start {
        std::string model;
        std::string device;
        std::string backend;  // the communicator's; empty: one process
        int world = 1;
        std::string amp = "none";
        std::int64_t images = 0;
        std::int64_t height = 0;
        std::int64_t width = 0;
        int classes = 0;
        std::int64_t batchesPerEpoch = 0;
        int epoch = 0;  // 0-based, the next to train
        std::int64_t iteration = 0;
    };
    static std::string started(const Start& start);
    static std::string budgetStarted(double budgetSeconds, double usedSeconds);

    // bestMeanIoU: nullopt without a validation pack; budget: spent, budget and the first plan.
    struct Budget {
        double elapsedSeconds = 0.0;
        double budgetSeconds = 0.0;
        std::int64_t firstPlannedIterations = 0;
    };
    static std::string finished(int epochs, std::int64_t iterations, double lastLoss, std::optional<double> bestMeanIoU,
                                std::optional<Budget> budget);
    static std::string stopped(int epoch, std::int64_t iteration, const std::string& runDir);
    // A NaN/Inf loss at a step (0-based iteration) of an epoch (0-based); lossValue finite: it
    // was another rank's.
    static std::string diverged(double lossValue, std::int64_t iteration, std::int64_t epoch);

    static run::RunState stateOf(TrainOutcome::Status status);
};

}  // namespace training
}  // namespace segstudio::engine
