#include "TrainerImpl.h"

#include "FiniteModelCheck.h"
#include "OptimizerFactory.h"
#include "NonFiniteParameters.h"
#include "ResumedRun.h"
#include "RunFolderClaim.h"
#include "SavedPosition.h"
#include "TrainingInput.h"
#include "TrainingModel.h"
#include "WorldJoin.h"
#include "engine/distributed/Communicator.h"
#include "engine/models/Checkpoint.h"
#include "engine/runtime/EngineError.h"
#include "engine/runtime/Runtime.h"

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
            {"budget", budget() ? budget()->state() : nlohmann::json()}};
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
    if (budget())
        budget()->restore(saved.value("budget", nlohmann::json()));
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

void Trainer::Impl::recordRun(std::int64_t total)
{
    // The first record of every session (a new run, or a resume).
    run::RunInfo info;
    info.model = config.model;
    info.device = device.str();
    info.worldSize = world;
    info.batch = config.batchSize;
    info.epochs = length->announcedEpochs();
    info.iterationsPerEpoch = loader->batchesPerEpoch();
    info.totalIterations = length->budgeted() && !length->plan() ? 0 : total;  // 0: not planned yet
    info.timeBudgetSeconds = config.timeBudgetSeconds;
    recorder->runStarted(info, epoch + 1, iteration);
}

void Trainer::Impl::recordState(run::RunState state, const std::string& reason)
{
    recorder->stateChanged(state, recordedEpoch(), iteration, reason);
}

double Trainer::Impl::elapsed() const
{
    return elapsedBefore + (clock() - sessionStart);
}

void Trainer::Impl::createBudget()
{
    const auto settings = BudgetController::settingsFor(config, *trainPack, valPack, world, loader->batchesPerEpoch());
    BudgetController::Hooks hooks;
    hooks.clock = [this] { return clock(); };
    hooks.agree = [this](BudgetPlan& next) { agreeOnPlan(next); };
    hooks.say = [this](const std::string& line) { say(line); };
    hooks.record = [this](const BudgetPlan& next) { recordPlan(next); };
    length->setBudget(std::make_unique<BudgetController>(settings, *schedule, *crops, std::move(hooks)));
}

void Trainer::Impl::agreeOnPlan(BudgetPlan& next)
{
    // One process keeps its own too: the planner's epochs are already the ceiling adopted here.
    length->adoptLeadersPlan(next, replicas->leaders(RunLength::figuresOf(next)));
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
    d.length = std::make_unique<RunLength>(d.config, d.loader->batchesPerEpoch());
    d.schedule = std::make_unique<LrSchedule>(d.config, d.loader->batchesPerEpoch(), d.totalIterations());
    if (d.length->budgeted())
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
        if (d.length->plan())  // a resumed budgeted run goes on with its plan until it has measured its pace
            d.recordPlan(*d.length->plan());
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

}  // namespace training
}  // namespace segstudio::engine
