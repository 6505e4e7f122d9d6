#include "Trainer.h"
#include "engine/runtime/Formatted.h"

#include "engine/input/Augmenter.h"
#include "engine/input/CropSchedule.h"
#include "engine/input/DeviceResidentPack.h"
#include "engine/input/BatchLoader.h"
#include "BudgetController.h"
#include "engine/models/Checkpoint.h"
#include "FiniteModelCheck.h"
#include "CheckpointCadence.h"
#include "CheckpointSnapshot.h"
#include "CheckpointWriter.h"
#include "engine/distributed/Communicator.h"
#include "engine/distributed/GradientSync.h"
#include "engine/runtime/EngineError.h"
#include "LossScaler.h"
#include "LrSchedule.h"
#include "NonFiniteParameters.h"
#include "OptimizerFactory.h"
#include "engine/distributed/Replicas.h"
#include "ResumedRun.h"
#include "RunFolderClaim.h"
#include "RunRecorder.h"
#include "SavedPosition.h"
#include "engine/runtime/Runtime.h"
#include "engine/inference/SegmentationLoss.h"
#include "engine/distributed/StepVerdicts.h"
#include "engine/runtime/StopFlag.h"
#include "TrainingInput.h"
#include "TrainingLog.h"
#include "TrainingModel.h"
#include "TrainingPacks.h"
#include "TrainingPrecision.h"
#include "TrainingStep.h"
#include "TrainingValidation.h"
#include "ValidationCadence.h"
#include "engine/inference/Validation.h"
#include "WeightAverage.h"
#include "WorldJoin.h"
#include "run/RunLayout.h"
#include "run/RunLock.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>

namespace segstudio::engine {
inline namespace training {

namespace fs = std::filesystem;

namespace {

// The run folder is a trainer's until run() wrote its last record and its last checkpoint (also on
// failure); then another trainer, a resume in this same process too, may take it.
struct LockRelease {
    std::unique_ptr<run::RunLock>& lock;
    CheckpointWriter& checkpoints;
    ~LockRelease()
    {
        try {
            checkpoints.wait();  // a failure already on its way out: the write's own error is second
        } catch (...) {
        }
        lock.reset();
    }
};

}  // namespace

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

    // Time-budgeted runs (config.timeBudgetSeconds > 0): their pace and plan.
    std::unique_ptr<BudgetController> budget;
    bool budgeted() const { return config.timeBudgetSeconds > 0; }
    const std::optional<BudgetPlan>& plan() const;
    int epochLimit() const;
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
    void saveCheckpoint(const fs::path& file);
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
    int recordedEpoch() const;
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
    std::int64_t totalIterations() const;
    // Steps of this world's size from the start of the run to the current position: the
    // iteration count when the world size never changed, and what the schedule and the end of
    // the run follow when a resume changed it.
    std::int64_t position() const { return std::int64_t(epoch) * loader->batchesPerEpoch() + batchInEpoch; }
};

void Trainer::Impl::openPacks()
{
    packs = std::make_unique<TrainingPacks>(config, world);
    trainPack = &packs->train();
    valPack = packs->validation();
    config.classes = packs->classes();
    // A share of the pack's sides becomes pixels here, so config.json says what the run trained on.
    if (config.cropHeight == 0) {
        const auto& spec = trainPack->spec();
        const auto crop = run::TrainingCrop::ofShare(int(spec.height), int(spec.width), config.cropShare);
        config.cropHeight = crop.height;
        config.cropWidth = crop.width;
    }
}

void Trainer::Impl::buildModel(bool resuming)
{
    model = TrainingModel::build(config, device, resuming);
    if (config.weightAverageDecay > 0)
        average = std::make_unique<WeightAverage>(*model, config.weightAverageDecay);
}

void Trainer::Impl::buildOptimizer()
{
    optimizer = makeOptimizer(config, model->parameters());
}

std::unique_ptr<CheckpointSnapshot> Trainer::Impl::makeCheckpointSnapshot() const
{
    return TrainingModel::snapshotFor(config, device);
}

void Trainer::Impl::prepareRunDirectory(bool resuming)
{
    if (config.runDir.empty())
        throw EngineError("training configuration: runDir is empty");
    if (leader())  // rank 0 alone writes the run directory
        runLock = RunFolderClaim::claim(config.runDir, resuming);
}

nlohmann::json Trainer::Impl::state() const
{
    nlohmann::json saved = {{"lossScale", scaler ? scaler->scale() : 1.0},
            {"model", config.model},
            {"classes", config.classes},
            {"classNames", packs->classNames()},
            {"classWeights", packs->classWeights()},
            {"height", trainPack->spec().height},
            {"width", trainPack->spec().width},
            {"config", toJson(config)},
            {"budget", budget ? budget->state() : nlohmann::json()}};
    SavedPosition{epoch, batchInEpoch, iteration, validationCadence.lastEpoch(), bestMeanIoU, elapsed()}.write(saved, world);
    return saved;
}

void Trainer::Impl::restore(const std::string& checkpoint)
{
    std::vector<torch::Tensor> savedAverage;
    const auto saved = Checkpoint::load(checkpoint, *model, optimizer.get(), device, average ? &savedAverage : nullptr);
    if (average) {
        try {
            if (savedAverage.empty())  // written without one: the average starts from the weights
                average = std::make_unique<WeightAverage>(*model, config.weightAverageDecay);
            else
                average->load(savedAverage);
        } catch (const std::invalid_argument& error) {
            throw EngineError(checkpoint + ": " + error.what());
        }
    }
    try {
        restorePosition(saved);
    } catch (const nlohmann::json::exception& error) {  // a NaN saved as null, a missing key
        throw EngineError(checkpoint + ": the checkpoint's training state is damaged (" + error.what() + ")");
    }
}

void Trainer::Impl::restorePosition(const nlohmann::json& saved)
{
    const SavedPosition position = SavedPosition::read(saved, world, config.valEpochs);
    epoch = position.epoch;
    batchInEpoch = position.batchInEpoch;
    iteration = position.iteration;
    validationCadence = ValidationCadence(position.lastValidatedEpoch);
    bestMeanIoU = position.bestMeanIoU;
    elapsedBefore = position.elapsedSeconds;
    if (budget)
        budget->restore(saved.value("budget", nlohmann::json()));
    if (scaler->enabled())  // an fp16 run resumed without CUDA must not scale fp32 gradients
        scaler->setScale(saved.value("lossScale", scaler->scale()));
}

void Trainer::Impl::saveCheckpoint(const fs::path& file)
{
    settleVerdicts();  // no file of a run that diverged meanwhile
    replicas->averageBuffers(*model);  // a collective: every rank takes part, rank 0 writes
    FiniteModelCheck::require(*model, iteration, epoch + 1, file.filename().string());  // every rank: the same values
    // Only last.pt resumes, so only it carries the optimiser's state and the weight average:
    // best.pt is what evaluate, predict, export and fine-tunes read, and without the state it is
    // a half (SGD momentum) to a third (AdamW) of the size. The write itself runs on the
    // checkpoint writer's thread; the training thread pays for a copy to host memory.
    const bool resumable = file == layout().lastCheckpoint();
    const double started = clock();
    if (leader())
        checkpointWriter->write(file.string(), *model, resumable ? optimizer.get() : nullptr, state(),
                                average && resumable ? &average->tensors() : nullptr);
    if (resumable && checkpointCadence) {
        const double now = clock();
        // Paced by what a write costs, on whichever thread: on a CPU the writer shares the cores.
        // Only rank 0 writes: every rank paces the next write by its time.
        const double writeSeconds = leader() ? std::max(now - started, checkpointWriter->lastWriteSeconds()) : 0.0;
        checkpointCadence->written(now, replicas->sum(writeSeconds));
    }
}

bool Trainer::Impl::epochCheckpointDue()
{
    const bool due = checkpointCadence->due(clock());
    // Writing is a collective (rank 0 writes, every rank takes part) and the ranks' clocks differ:
    // they write when any of them finds it due.
    return checkpointCadence->interval() > 0 ? replicas->any(due) : due;
}

TrainOutcome Trainer::Impl::endDiverged(const std::string& message)
{
    if (loader)
        loader->stop();
    outcome.status = TrainOutcome::Status::Diverged;
    outcome.message = message;
    try {
        checkpointWriter->wait();
    } catch (const std::exception& error) {
        outcome.message += std::string("; the checkpoint write before it failed too: ") + error.what();
    }
    outcome.epochsCompleted = epoch;
    outcome.iterations = iteration;
    outcome.bestMeanIoU = bestMeanIoU;
    say(message);
    recordState(run::RunState::Failed, message);
    return outcome;
}

void Trainer::Impl::makeTrainingStep()
{
    TrainingStep::Settings settings;
    settings.device = device;
    settings.seed = config.seed;
    settings.rank = rank;
    settings.learningRateFactor = config.scaleLearningRate ? double(world) : 1.0;
    settings.accumulate = config.accumulate;
    settings.amp = precision.amp;
    settings.channelsLast = precision.channelsLast;
    settings.debugNanAtIteration = config.debugNanAtIteration;
    TrainingStep::Parts parts{*model, *optimizer, *loss, *augmenter, *schedule, *crops, *scaler,
                              average.get(), gradientSync.get(), residentTrain.get()};
    TrainingStep::Hooks hooks;
    // Decisions that end a step or the run are agreed by every rank, so none is left alone in a
    // collective: a NaN/Inf loss anywhere, a stop request anywhere. On a GPU the host reads them a
    // step late (the device is never waited for here); on a CPU at once, and then a non-finite
    // loss is never stepped on. A diverged run ends without saving what its last steps did.
    hooks.judge = [this](const torch::Tensor& meanLoss) {
        verdicts->post(iteration, position(), meanLoss, stopRequested());
        heed(verdicts->take());
    };
    hooks.say = [this](const std::string& line) { say(line); };
    step = std::make_unique<TrainingStep>(settings, parts, std::move(hooks));
}

void Trainer::Impl::heed(const std::optional<StepVerdicts::Verdict>& verdict)
{
    if (!verdict)
        return;
    stopAgreed = stopAgreed || verdict->stop;
    if (!verdict->nonFinite)
        return;
    const double lossValue = verdict->loss.item<double>();
    const std::string what = std::isnan(lossValue)   ? "NaN"
                             : std::isinf(lossValue) ? "infinite"
                                                     : "NaN/infinite on another rank";
    const std::int64_t perEpoch = loader->batchesPerEpoch();
    iteration = verdict->iteration;  // the steps before it are the run's
    throw TrainingDiverged("loss became " + what + " at iteration " + std::to_string(verdict->iteration + 1) +
                           " (epoch " + std::to_string(verdict->position / perEpoch + 1) +
                           "); stopped, the last good checkpoint is kept. Try a lower learning rate.");
}

void Trainer::Impl::settleVerdicts()
{
    while (!verdicts->empty())
        heed(verdicts->drain());
}

SegmentationMetrics Trainer::Impl::validateNow(TrainOutcome& outcome)
{
    const auto settings =
        TrainingValidation::settingsFor(config, device, precision, packs->classWeights(), communicator.get());
    settleVerdicts();
    recordState(run::RunState::Validating);
    lastValidatedIteration = iteration;
    validationCadence.validated(epoch + (batchInEpoch >= loader->batchesPerEpoch() ? 1 : 0));
    const double started = clock();
    // Validation and the best checkpoint see the averaged weights; training goes on with its own.
    WeightAverage::Scope averaged(average.get());
    replicas->averageBuffers(*model);
    const auto metrics = validate(*model, *valPack, *loss, settings);
    if (budget)
        budget->validationTook(clock() - started);
    recorder->validated(epoch + 1, iteration, metrics, elapsed());
    outcome.validated = true;
    outcome.lastValidation = metrics;
    if (TrainingValidation::isNewBest(metrics, bestMeanIoU)) {
        bestMeanIoU = metrics.meanIoU;
        saveCheckpoint(layout().bestCheckpoint());
    }
    outcome.bestMeanIoU = bestMeanIoU;
    recordState(run::RunState::Training);
    return metrics;
}

void Trainer::Impl::logTraining()
{
    settleVerdicts();  // a line never shows the loss of a step that diverged
    RunRecorder::TrainFigures figures = metricsLog->figures();  // a collective
    figures.epoch = epoch + 1;
    figures.iteration = iteration;
    figures.learningRate = schedule->at(position() - 1) * (config.scaleLearningRate ? double(world) : 1.0);
    figures.elapsedSeconds = elapsed();
    recorder->trained(figures);
}

void Trainer::Impl::recordRun(std::int64_t total)
{
    // The first record of every session (a new run, or a resume).
    run::RunInfo info;
    info.model = config.model;
    info.device = device.str();
    info.worldSize = world;
    info.batch = config.batchSize;
    info.epochs = budgeted() ? (plan() ? plan()->epochs : 0) : config.epochs;
    info.iterationsPerEpoch = loader->batchesPerEpoch();
    info.totalIterations = budgeted() && !plan() ? 0 : total;  // 0: not planned yet
    info.timeBudgetSeconds = config.timeBudgetSeconds;
    recorder->runStarted(info, epoch + 1, iteration);
}

// The epoch being worked in; once the last one is done the counter points past it, and a
// finished run must say "12 of 12", not "13 of 12".
int Trainer::Impl::recordedEpoch() const
{
    return std::min(epoch + 1, std::max(1, epochLimit()));
}

void Trainer::Impl::recordState(run::RunState state, const std::string& reason)
{
    recorder->stateChanged(state, recordedEpoch(), iteration, reason);
}

double Trainer::Impl::elapsed() const
{
    return elapsedBefore + (clock() - sessionStart);
}

std::int64_t Trainer::Impl::totalIterations() const
{
    // A budgeted run without a plan yet (its first steps measure the pace) has no end so far.
    const std::int64_t all = !budgeted() ? std::int64_t(config.epochs) * loader->batchesPerEpoch()
                             : budget   ? budget->totalIterations()
                                        : BudgetController::kNoEnd;
    return config.maxIterations > 0 ? std::min(all, config.maxIterations) : all;
}

int Trainer::Impl::epochLimit() const
{
    return !budgeted() ? config.epochs : budget ? budget->epochLimit() : std::numeric_limits<int>::max();
}

const std::optional<BudgetPlan>& Trainer::Impl::plan() const
{
    static const std::optional<BudgetPlan> none;
    return budget ? budget->plan() : none;
}

void Trainer::Impl::createBudget()
{
    const auto settings = BudgetController::settingsFor(config, *trainPack, valPack, world, loader->batchesPerEpoch());
    BudgetController::Hooks hooks;
    hooks.clock = [this] { return clock(); };
    hooks.agree = [this](BudgetPlan& next) { agreeOnPlan(next); };
    hooks.say = [this](const std::string& line) { say(line); };
    hooks.record = [this](const BudgetPlan& next) { recordPlan(next); };
    budget = std::make_unique<BudgetController>(settings, *schedule, *crops, std::move(hooks));
}

void Trainer::Impl::agreeOnPlan(BudgetPlan& next)
{
    // Rank 0's plan is every rank's: its end decides the collectives the ranks take part in. (One
    // process keeps its own: the planner's epochs are already the ceiling below.)
    const auto shared = replicas->leaders(
        {double(next.totalIterations), next.validateOnlyAtEnd ? 1.0 : 0.0, double(next.validationEpochs)});
    next.totalIterations = std::int64_t(shared[0]);
    next.validateOnlyAtEnd = shared[1] > 0.0;
    next.validationEpochs = std::max(1, int(shared[2]));
    const std::int64_t perEpoch = loader->batchesPerEpoch();
    next.epochs = int((next.totalIterations + perEpoch - 1) / perEpoch);
}

void Trainer::Impl::recordPlan(const BudgetPlan& next)
{
    recorder->planned(epoch + 1, iteration, next.totalIterations, next.epochs, config.timeBudgetSeconds, next.note);
}

Trainer::Trainer(TrainConfig config, std::shared_ptr<Communicator> communicator)
    : Trainer(std::move(config), false, std::move(communicator))
{
}

Trainer::Trainer(TrainConfig config, bool resuming, std::shared_ptr<Communicator> communicator)
    : m_impl(std::make_unique<Impl>())
{
    auto& d = *m_impl;
    config.validate();
    d.communicator = std::move(communicator);
    d.config = std::move(config);
    d.device = chooseDevice(d.config.device);
    d.replicas = std::make_unique<Replicas>(d.communicator.get(), d.device);
    d.rank = d.replicas->rank();
    d.world = d.replicas->size();
    d.recorder = std::make_unique<RunRecorder>(d.leader());
    d.metricsLog = std::make_unique<TrainingLog>(*d.replicas, d.device, [&d] { return d.clock(); });
    // A new run refuses a precision this device cannot compute; a resumed one goes on in fp32.
    d.precision = TrainingPrecision::choose(d.config, d.device, resuming);
    d.startNote = d.precision.note;
    makeCurrentDevice(d.device);
    configureRuntime(d.config.threads, d.config.deterministic, d.config.cudnnBenchmark);
    d.openPacks();
    d.buildModel(resuming);
    d.buildOptimizer();
    d.verdicts = std::make_unique<StepVerdicts>(d.device, d.communicator.get(),
                                                d.config.verdictLag >= 0 ? std::optional<int>(d.config.verdictLag) : std::nullopt);
    d.checkpointWriter = std::make_unique<CheckpointWriter>([&d] { return d.makeCheckpointSnapshot(); });
    d.loss = std::make_unique<SegmentationLoss>(d.packs->classWeights(), d.device, d.config.hardPixelFraction);
    TrainingInput input = TrainingInput::make(d.config, *d.trainPack, d.device, d.rank, d.world);
    d.augmenter = std::move(input.augmenter);
    d.crops = std::move(input.crops);
    d.residentTrain = std::move(input.resident);
    d.loader = std::move(input.loader);
    d.dataNote = std::move(input.note);
    d.schedule = std::make_unique<LrSchedule>(d.config, d.loader->batchesPerEpoch(), d.totalIterations());
    if (d.budgeted())
        d.createBudget();
    d.scaler = std::make_unique<LossScaler>(d.precision.amp == "fp16" && d.device.is_cuda());
    d.prepareRunDirectory(resuming);
    // A checkpoint that cannot be resumed (damaged, another model) is refused before anything is
    // written: the run it belongs to keeps its record as it was (issue 46.10).
    if (resuming)
        d.restore(d.layout().lastCheckpoint().string());
    // After a resume was accepted: a refused one leaves config.json, log.txt and metrics.jsonl as
    // they were (issue 46.10).
    d.recorder->open(d.config, resuming, d.iteration);
    try {
        // Steps done plus steps left in this world's size: after a resume with another number of
        // ranks the logged iteration count and the position in the data no longer agree.
        d.recordRun(d.iteration + std::max<std::int64_t>(0, d.totalIterations() - d.position()));
        if (d.plan())  // a resumed budgeted run goes on with its plan until it has measured its pace
            d.recordPlan(*d.plan());
        d.recordState(run::RunState::Starting);
        if (d.precision.channelsLast) {
            torch::NoGradGuard noGrad;
            for (auto& parameter : d.model->parameters())
                if (parameter.dim() == 4)
                    parameter.set_data(parameter.data().contiguous(at::MemoryFormat::ChannelsLast));
        }
        d.gradientSync = WorldJoin::join(d.communicator.get(), *d.replicas, *d.model, d.config, *d.trainPack, d.valPack);
    } catch (const std::exception& error) {
        d.recordFailure(error.what());
        throw;
    }
    d.makeTrainingStep();  // last: restore() may have replaced the weight average, WorldJoin made the sync
}

std::unique_ptr<Trainer> Trainer::resume(const std::string& runDir, int epochs, std::shared_ptr<Communicator> communicator,
                                         const std::string& device, std::int64_t maxIterations, int threads,
                                         double timeBudgetSeconds)
{
    ResumedRun resumed = ResumedRun::of(runDir, {epochs, device, maxIterations, threads, timeBudgetSeconds});
    std::unique_ptr<Trainer> trainer(new Trainer(std::move(resumed.config), resumed.checkpointed, std::move(communicator)));
    if (!resumed.note.empty())
        trainer->m_impl->startNote = resumed.note;
    return trainer;
}

Trainer::~Trainer() = default;

void Trainer::setProgress(ProgressFunction progress)
{
    m_impl->recorder->setProgress(std::move(progress));
}

void Trainer::setIterationHook(IterationHook hook)
{
    m_impl->hook = std::move(hook);
}

void Trainer::setClock(std::function<double()> secondsNow)
{
    m_impl->clock = std::move(secondsNow);
    m_impl->sessionStart = m_impl->clock();
}

int Trainer::rank() const
{
    return m_impl->rank;
}

const TrainConfig& Trainer::config() const
{
    return m_impl->config;
}

const std::vector<std::string>& Trainer::classNames() const
{
    return m_impl->packs->classNames();
}

std::string Trainer::lastCheckpointPath() const
{
    return m_impl->layout().lastCheckpoint().string();
}

std::string Trainer::bestCheckpointPath() const
{
    return m_impl->layout().bestCheckpoint().string();
}

TrainOutcome Trainer::run()
{
    const LockRelease release{m_impl->runLock, *m_impl->checkpointWriter};
    try {
        return m_impl->train();
    } catch (const TrainingDiverged& error) {
        return m_impl->endDiverged(error.what());
    } catch (const std::exception& error) {
        m_impl->recordFailure(error.what());
        throw;
    }
}

// Said and recorded once per session, before its first step.
void Trainer::Impl::startSession()
{
    outcome = TrainOutcome{};
    outcome.bestMeanIoU = bestMeanIoU;
    sessionStart = clock();
    session = SessionTally{};
    checkpointCadence = std::make_unique<CheckpointCadence>(config.checkpointIntervalSeconds, device.is_cuda());
    checkpointCadence->started(sessionStart);
    // A run that ended at its budget, resumed with a larger one: its saved plan ends here, so the
    // rest of the new budget is planned now from the last session's pace (issue 46.8), the
    // schedule re-planned from where it ended.
    if (budget && plan() && plan()->totalIterations <= position() && config.timeBudgetSeconds > elapsedBefore)
        budget->extendPastTheEnd(position(), elapsedBefore, elapsed());
    if (budget)
        budget->startSession();
    if (!startNote.empty())
        say(startNote);
    say("data: " + dataNote);
    const std::string ranks =
        communicator ? " x " + std::to_string(world) + " ranks (" + communicator->backend() + ")" : std::string();
    const std::string& amp = precision.amp;
    say("training " + config.model + " on " + device.str() + ranks + (amp == "none" ? "" : " in " + amp) + ": " +
        std::to_string(trainPack->size()) + " images " + std::to_string(trainPack->spec().height) + "x" +
        std::to_string(trainPack->spec().width) + ", " + std::to_string(config.classes) + " classes, " +
        std::to_string(loader->batchesPerEpoch()) + " batches/epoch, from epoch " + std::to_string(epoch + 1) +
        " iteration " + std::to_string(iteration));
    if (budgeted())
        say(formatted("time budget %.0f s, %.0f s of it used: the first steps measure the pace, then the plan follows",
                   config.timeBudgetSeconds, elapsedBefore));
    recordState(run::RunState::Training);
    metricsLog->restart();
}

// A step's loss, images and accuracy into the session's tally and the log window.
void Trainer::Impl::countStep(const TrainingStep::Result& stepped, std::int64_t images, bool logged)
{
    if (!session.lastLoss.defined())
        outcome.firstLoss = stepped.loss.item<double>();  // once per session
    session.lastLoss = stepped.loss;
    session.images += images;
    metricsLog->count(stepped.loss, images, logged, stepped.hits, stepped.valid);
}

TrainOutcome Trainer::Impl::finish(TrainOutcome::Status status, std::string message)
{
    loader->stop();
    checkpointWriter->wait();  // "finished" and "stopped" promise a checkpoint on disk
    if (session.lastLoss.defined())
        outcome.lastLoss = session.lastLoss.item<double>();
    outcome.status = status;
    outcome.message = std::move(message);
    outcome.epochsCompleted = epoch;
    outcome.iterations = iteration;
    const double seconds = clock() - sessionStart;
    outcome.imagesPerSecond = seconds > 0 ? double(session.images) / seconds : 0.0;
    say(outcome.message);
    recordState(status == TrainOutcome::Status::Finished  ? run::RunState::Finished
                : status == TrainOutcome::Status::Stopped ? run::RunState::Stopped
                                                          : run::RunState::Failed,
                outcome.message);
    return outcome;
}

TrainOutcome Trainer::Impl::stopped()
{
    saveCheckpoint(layout().lastCheckpoint());
    return finish(TrainOutcome::Status::Stopped, "stopped at epoch " + std::to_string(epoch + 1) + " iteration " +
                                                     std::to_string(iteration) + "; checkpoint written, continue with --resume " +
                                                     config.runDir);
}

// One epoch's batches, up to the end of the run or a stop. Returns false when a stop asked for
// now ended the session mid-epoch (the outcome is then set); stopAtEpochEnd is set when the stop
// waits for the epoch to be closed.
bool Trainer::Impl::trainEpoch(bool& stopAtEpochEnd)
{
    loader->start(epoch, batchInEpoch);
    while (auto batch = loader->next()) {
        // The run's last step logs too, so a run shorter than the log interval still records
        // its loss and learning rate (the same on every rank: the limit is shared).
        const bool lastStep = std::int64_t(epoch) * loader->batchesPerEpoch() + batch->index + 1 >= totalIterations();
        const bool logNow = (iteration + 1) % config.logInterval == 0 || lastStep;
        const auto stepped = step->run(*batch, {epoch, iteration, position()}, logNow);
        ++iteration;
        batchInEpoch = batch->index + 1;
        countStep(stepped, batch->size(), logNow);
        if (logNow)
            logTraining();
        if (hook) {
            checkpointWriter->wait();  // the hook sees the run folder settled
            hook(iteration);
        }
        if (budget)  // may move the end (a collective in data parallel: every rank, same step)
            budget->stepDone(position(), elapsed(), step->cost(), totalIterations());
        // A data-parallel stop is agreed inside the step (a collective), so every rank stops at
        // the same position; one process honours a request at once. After an epoch's last
        // batch the epoch is closed first (its validation, the epoch count), so the checkpoint
        // never sits at the end of an epoch that a resume would not finish.
        if (stopAgreed || (!communicator && stopRequested())) {
            if (batchInEpoch < loader->batchesPerEpoch()) {
                stopped();
                return false;
            }
            stopAtEpochEnd = true;
            break;
        }
        if (valPack && config.valInterval > 0 && iteration % config.valInterval == 0)
            validateNow(outcome);
        if (position() >= totalIterations())
            break;
    }
    loader->stop();
    return true;
}

// The end of an epoch's batches: its validation when due (and the run's last), the epoch count,
// the epoch's checkpoint. Returns true when the session stops here (a stop asked for during the
// epoch, or "stop after this epoch"), its checkpoint written and the outcome set.
bool Trainer::Impl::closeEpoch(bool stopAtEpochEnd)
{
    const bool epochDone = batchInEpoch >= loader->batchesPerEpoch();
    const bool lastEpoch = epoch + 1 >= epochLimit() || position() >= totalIterations();
    const bool epochValidation = !(plan() && plan()->validateOnlyAtEnd);
    const int validationEpochs = plan() ? plan()->validationEpochs : config.valEpochs;
    // --val-interval may have validated this very iteration already (it divides the epoch).
    const bool validated = lastValidatedIteration == iteration;
    const bool periodDue = epochDone && validationCadence.dueAfterEpoch(epoch + 1, validationEpochs);
    if (valPack && !validated && ((epochValidation && periodDue) || lastEpoch))
        validateNow(outcome);  // still counted as the epoch just trained
    if (epochDone) {
        ++epoch;
        batchInEpoch = 0;
        if (config.checkpointEachEpoch && epoch < epochLimit() && position() < totalIterations() && epochCheckpointDue())
            saveCheckpoint(layout().lastCheckpoint());
    }
    const bool more = epoch < epochLimit() && position() < totalIterations();
    // "Stop after this epoch" (SIGUSR1, the GUI's button), asked once per epoch; every rank
    // must agree, or the ranks would part ways at a collective.
    if (epochDone && more && !stopAtEpochEnd && replicas->any(stopAfterEpochRequested()))
        stopAtEpochEnd = true;
    if (!stopAtEpochEnd || !more)
        return false;
    stopped();
    return true;
}

TrainOutcome Trainer::Impl::train()
{
    startSession();
    bool stopAtEpochEnd = false;
    while (epoch < epochLimit() && position() < totalIterations()) {
        if (!trainEpoch(stopAtEpochEnd) || closeEpoch(stopAtEpochEnd))
            return outcome;
    }
    saveCheckpoint(layout().lastCheckpoint());
    if (session.lastLoss.defined())
        outcome.lastLoss = session.lastLoss.item<double>();
    const std::string validation =
        valPack ? formatted("best val mIoU %.4f", bestMeanIoU) : std::string("no validation (no validation pack)");
    const std::string spent = budgeted() ? formatted("; %.0f s of the %.0f s budget (first planned %.0f iterations)", elapsed(),
                                                  config.timeBudgetSeconds, double(budget->firstPlannedIterations()))
                                         : std::string();
    return finish(TrainOutcome::Status::Finished,
                  formatted("finished: %.0f epochs, %.0f iterations, last loss %.4f, ", epoch, double(iteration), outcome.lastLoss) +
                      validation + spent);
}

}  // namespace training
}  // namespace segstudio::engine
