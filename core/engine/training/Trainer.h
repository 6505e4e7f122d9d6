#pragma once

#include "engine/inference/SegmentationMetrics.h"
#include "TrainConfig.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace distributed { class Communicator; }

inline namespace training {
struct TrainOutcome {
    enum class Status { Finished, Stopped, Diverged };
    Status status = Status::Finished;
    int epochsCompleted = 0;
    std::int64_t iterations = 0;
    double firstLoss = 0.0;  // first logged training loss of this session
    double lastLoss = 0.0;
    double imagesPerSecond = 0.0;  // this session's training throughput
    bool validated = false;
    SegmentationMetrics lastValidation;
    double bestMeanIoU = -1.0;
    std::string message;
};

// Trains one run into its run directory: config.json, metrics.jsonl, log.txt and
// checkpoints/last.pt + checkpoints/best.pt (best validation mIoU).
// Requirements: construct and run() on one thread.
// One Trainer per run directory at a time, in any process: rank 0 holds run::RunLock from its
// constructor until run() returns, and a second one is refused with run::RunLockedError naming
// the first.
// Guarantees: packs, model name and weights are checked in the constructor (EngineError), before
// any training; a stop request (SIGINT/SIGTERM via installStopSignalHandlers(), or requestStop())
// is honoured between iterations by writing checkpoints/last.pt at the exact position; a NaN/Inf
// loss ends the run as Diverged without overwriting the last good checkpoint; resume() continues
// with the same batches, augmentations and optimiser state as an uninterrupted run.
class Trainer {
public:
    using ProgressFunction = std::function<void(const std::string& line)>;
    using IterationHook = std::function<void(std::int64_t iteration)>;

    // A new run; throws EngineError when runDir already holds a checkpoint (resume it instead).
    // With a communicator this process is one rank of a data-parallel run (docs/ENGINE.md): it
    // trains on its share of every batch, gradients are averaged over the ranks (GradientSync),
    // and rank 0 alone writes the run directory.
    explicit Trainer(TrainConfig config, std::shared_ptr<Communicator> communicator = nullptr);
    // Continues RUN_DIR from checkpoints/last.pt, with any world size; epochs > 0 extends (or
    // shortens) the run. A run stopped before its first checkpoint starts again from its
    // config.json; a folder with neither is refused (EngineError naming it).
    // device, when given, replaces the run's (a rank of a data-parallel resume takes its own);
    // maxIterations >= 0 replaces the run's iteration limit (0 = none), threads >= 0 its CPU
    // threads (0 = all cores), timeBudgetSeconds >= 0 its time budget (the whole run's training
    // time, earlier sessions included; 0 = train for the epochs).
    static std::unique_ptr<Trainer> resume(const std::string& runDir, int epochs = 0,
                                           std::shared_ptr<Communicator> communicator = nullptr,
                                           const std::string& device = {}, std::int64_t maxIterations = -1,
                                           int threads = -1, double timeBudgetSeconds = -1.0);
    ~Trainer();

    void setProgress(ProgressFunction progress);
    // Called after every iteration (tests), with the run folder settled: no checkpoint write is in
    // flight, so what it finds in checkpoints/ is what the run has written so far.
    void setIterationHook(IterationHook hook);
    // The clock of the run's training time, in seconds (default: steady_clock). Tests of time
    // budgets give a fake one that the iteration hook advances.
    void setClock(std::function<double()> secondsNow);

    TrainOutcome run();

    const TrainConfig& config() const;
    int rank() const;  // 0 in a single-process run; rank 0 writes the run directory
    std::string lastCheckpointPath() const;
    const std::vector<std::string>& classNames() const;  // from the training pack, in class-id order
    std::string bestCheckpointPath() const;

private:
    struct Impl;
    Trainer(TrainConfig config, bool resuming, std::shared_ptr<Communicator> communicator);

    std::unique_ptr<Impl> m_impl;
};

}  // namespace training
}  // namespace segstudio::engine
