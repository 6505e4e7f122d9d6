#pragma once

// Trainer's parts and position, shared by Trainer.cpp (assembling the parts, checkpoints, the
// public interface) and TrainingLoop.cpp (a session's epochs, steps, validations and end).
// Private to the engine's training folder: nothing outside it includes this.

#include "Trainer.h"

#include "BudgetController.h"
#include "CheckpointCadence.h"
#include "CheckpointSnapshot.h"
#include "CheckpointWriter.h"
#include "LossScaler.h"
#include "LrSchedule.h"
#include "RunLength.h"
#include "RunRecorder.h"
#include "TrainingLog.h"
#include "TrainingPacks.h"
#include "TrainingPrecision.h"
#include "TrainingStep.h"
#include "ValidationCadence.h"
#include "WeightAverage.h"
#include "engine/distributed/GradientSync.h"
#include "engine/distributed/Replicas.h"
#include "engine/distributed/StepVerdicts.h"
#include "engine/inference/SegmentationLoss.h"
#include "engine/input/Augmenter.h"
#include "engine/input/BatchLoader.h"
#include "engine/input/CropSchedule.h"
#include "engine/input/DeviceResidentPack.h"
#include "run/RunLayout.h"
#include "run/RunLock.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace segstudio::engine {
inline namespace training {

struct Trainer::Impl {
    std::unique_ptr<run::RunLock> runLock;  // rank 0's, until run() returns; first member: released last
    TrainConfig config;
    std::shared_ptr<Communicator> communicator;  // null: one process
    std::unique_ptr<Replicas> replicas;          // what the ranks agree on (identities for one process)
    std::unique_ptr<RunRecorder> recorder;       // rank 0's records and voice
    int rank = 0;
    int world = 1;
    std::unique_ptr<GradientSync> gradientSync;
    torch::Device device{torch::kCPU};
    std::unique_ptr<TrainingPacks> packs;
    const pack::PackReader* trainPack = nullptr;  // the packs'
    const pack::PackReader* valPack = nullptr;    // null: no validation
    std::shared_ptr<SegmentationModelImpl> model;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::unique_ptr<SegmentationLoss> loss;
    std::unique_ptr<WeightAverage> average;  // config.weightAverageDecay > 0
    std::unique_ptr<Augmenter> augmenter;
    std::unique_ptr<CropSchedule> crops;  // progressive() or not
    std::unique_ptr<BatchLoader> loader;
    std::unique_ptr<DeviceResidentPack> residentTrain;  // null: batches come from the host loader
    std::string dataNote;                               // which, and why (said at the start)
    std::unique_ptr<LrSchedule> schedule;
    std::unique_ptr<LossScaler> scaler;
    std::unique_ptr<TrainingStep> step;  // made last: it holds the parts above
    void makeTrainingStep();
    IterationHook hook;

    // Position: the next batch to train is batchInEpoch of epoch; iteration counts finished steps.
    int epoch = 0;
    std::int64_t batchInEpoch = 0;
    std::int64_t iteration = 0;
    double bestMeanIoU = -1.0;
    double elapsedBefore = 0.0;
    bool stopAgreed = false;  // every rank saw a stop request at the same step
    TrainOutcome outcome;     // of this session, so far (a divergence ends it from anywhere)
    std::string startNote;    // said before training: why this session starts where it does
    TrainingPrecision precision;  // config.amp as this device runs it, channels-last or not
    std::int64_t lastValidatedIteration = -1;  // one val record per iteration, however it was asked for
    ValidationCadence validationCadence;       // which epoch ends validate
    std::function<double()> clock = [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
    double sessionStart = clock();
    std::unique_ptr<CheckpointCadence> checkpointCadence;  // when an epoch's end writes last.pt
    std::unique_ptr<CheckpointWriter> checkpointWriter;    // writes them off the training thread
    std::unique_ptr<CheckpointSnapshot> makeCheckpointSnapshot() const;

    // How long the run is: its config's epochs, or a time budget's plan (config.timeBudgetSeconds > 0).
    std::unique_ptr<RunLength> length;
    BudgetController* budget() const { return length->budget(); }
    void createBudget();
    void agreeOnPlan(BudgetPlan& plan);
    void recordPlan(const BudgetPlan& plan);

    void openPacks();
    void buildModel(bool resuming);
    void buildOptimizer();
    void prepareRunDirectory(bool resuming);
    void restore(const std::string& checkpoint);
    void restorePosition(const nlohmann::json& saved);

    run::RunLayout layout() const { return run::RunLayout(config.runDir); }
    nlohmann::json state() const;
    void saveCheckpoint(const std::filesystem::path& file);
    bool epochCheckpointDue();
    TrainOutcome endDiverged(const std::string& message);
    // The step's NaN/stop flags, read a step late on a GPU (StepVerdicts).
    std::unique_ptr<StepVerdicts> verdicts;
    void heed(const std::optional<StepVerdicts::Verdict>& verdict);
    void settleVerdicts();  // every step's flags read: before a checkpoint, a validation, the end
    bool leader() const { return rank == 0; }
    SegmentationMetrics validateNow(TrainOutcome& outcome);
    void logTraining();
    void recordRun(std::int64_t totalIterations);
    void recordState(run::RunState state, const std::string& reason = {});
    void recordFailure(const std::string& reason) noexcept { recorder->failed(reason, recordedEpoch(), iteration); }
    int recordedEpoch() const { return length->recordedEpoch(epoch); }
    TrainOutcome train();
    void startSession();
    bool trainEpoch(bool& stopAtEpochEnd);
    bool closeEpoch(bool stopAtEpochEnd);
    void countStep(const TrainingStep::Result& stepped, std::int64_t images, bool logged);
    TrainOutcome finish(TrainOutcome::Status status, std::string message);
    TrainOutcome stopped();  // the checkpoint written, the session ended as stopped
    // This session's images and its last step's loss (on the device until the run ends).
    struct SessionTally {
        std::int64_t images = 0;
        torch::Tensor lastLoss;
    } session;
    void say(const std::string& line) { recorder->say(line); }
    double elapsed() const;

    std::unique_ptr<TrainingLog> metricsLog;  // the metrics line's window
    std::int64_t totalIterations() const { return length->totalIterations(); }
    // Steps of this world's size from the start of the run to the current position: the
    // iteration count when the world size never changed, and what the schedule and the end of
    // the run follow when a resume changed it.
    std::int64_t position() const { return std::int64_t(epoch) * loader->batchesPerEpoch() + batchInEpoch; }
};

}  // namespace training
}  // namespace segstudio::engine
