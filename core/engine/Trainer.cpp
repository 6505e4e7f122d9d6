#include "Trainer.h"

#include "Augmenter.h"
#include "CropSchedule.h"
#include "DeviceResidentPack.h"
#include "BatchLoader.h"
#include "BudgetController.h"
#include "Checkpoint.h"
#include "CheckpointCadence.h"
#include "CheckpointSnapshot.h"
#include "CheckpointWriter.h"
#include "Communicator.h"
#include "GradientSync.h"
#include "EncoderWeights.h"
#include "EngineError.h"
#include "GpuMonitor.h"
#include "LossScaler.h"
#include "LrSchedule.h"
#include "ModelRegistry.h"
#include "NonFiniteParameters.h"
#include "OptimizerFactory.h"
#include "Runtime.h"
#include "SegNet.h"
#include "SegmentationLoss.h"
#include "StepVerdicts.h"
#include "StopFlag.h"
#include "ValidationCadence.h"
#include "Validation.h"
#include "Version.h"
#include "WeightAverage.h"
#include "pack/ClassWeights.h"
#include "pack/PackError.h"
#include "run/AppendOnlyFile.h"
#include "run/MetricsWriter.h"
#include "run/RunLayout.h"
#include "run/RunLock.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>

namespace segstudio::engine {

namespace fs = std::filesystem;

namespace {

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0, double e = 0)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, pattern, a, b, c, d, e);
    return buffer;
}

std::uint64_t mix(std::uint64_t x)  // splitmix64 finaliser: well-spread per-batch seeds
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

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
    int rank = 0;
    int world = 1;
    std::unique_ptr<GradientSync> gradientSync;
    torch::Device device{torch::kCPU};
    std::unique_ptr<pack::PackReader> trainPack;
    std::unique_ptr<pack::PackReader> valPack;
    std::vector<std::string> classNames;
    std::vector<double> classWeights;
    std::shared_ptr<SegmentationModelImpl> model;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::unique_ptr<SegmentationLoss> loss;
    std::unique_ptr<WeightAverage> average;  // config.weightAverageDecay > 0
    std::unique_ptr<Augmenter> augmenter;
    // Progressive crops: the schedule, the crop in use and what a step on it costs against a
    // full-crop step (the planner's unit of pace).
    std::unique_ptr<CropSchedule> crops;  // always set by run(); progressive() or not
    std::pair<int, int> cropInUse{0, 0};
    double stepCost = 1.0;
    void fitCropToProgress();
    std::unique_ptr<BatchLoader> loader;
    std::unique_ptr<DeviceResidentPack> residentTrain;  // null: batches come from the host loader
    std::string dataNote;                               // which, and why (said at the start)
    void placeTrainingData();
    std::unique_ptr<LrSchedule> schedule;
    std::unique_ptr<LossScaler> scaler;
    std::unique_ptr<run::MetricsWriter> metricsLog;
    std::unique_ptr<run::AppendOnlyFile> logFile;
    std::unique_ptr<GpuMonitor> gpuMonitor;  // null without NVML
    bool gpuMonitorOpened = false;
    ProgressFunction progress;
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
    std::string amp = "none";  // config.amp as this device runs it (resolveAmp)
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
    void computeClassWeights();
    void buildModel(bool resuming);
    void initialiseFrom(const std::string& checkpoint);
    void buildOptimizer();
    void prepareRunDirectory(bool resuming);
    void openRunRecords(bool resuming);
    void restore(const std::string& checkpoint);
    void restorePosition(const nlohmann::json& saved);

    run::RunLayout layout() const { return run::RunLayout(config.runDir); }
    nlohmann::json state() const;
    void saveCheckpoint(const fs::path& file);
    bool channelsLast() const;
    void resolvePrecision(bool resuming);
    bool epochCheckpointDue();
    void requireFiniteModel(const fs::path& file);
    TrainOutcome endDiverged(const std::string& message);
    // The step's NaN/stop flags, read a step late on a GPU (StepVerdicts).
    std::unique_ptr<StepVerdicts> verdicts;
    void heed(const std::optional<StepVerdicts::Verdict>& verdict);
    void settleVerdicts();  // every step's flags read: before a checkpoint, a validation, the end
    // Returns the step's mean loss (0-dim double, on the device).
    torch::Tensor trainStep(const HostBatch& batch, bool measureAccuracy);
    torch::Tensor forwardBackward(const torch::Tensor& input, const torch::Tensor& labels, double share,
                                  bool measureAccuracy);
    bool leader() const { return rank == 0; }
    void joinWorld();
    void checkSamePacksEverywhere();
    void synchroniseBuffers();
    SegmentationMetrics validateNow(TrainOutcome& outcome);
    void logTraining();
    void recordRun(std::int64_t totalIterations);
    void recordState(run::RunState state, const std::string& reason = {});
    void recordGpus();
    void recordFailure(const std::string& reason) noexcept;
    bool stopAfterEpochAgreed();
    TrainOutcome train();
    void say(const std::string& line);
    double elapsed() const;

    // Losses and images since the last metrics line, for its mean loss and images/s.
    struct LogWindow {
        std::int64_t images = 0;
        std::int64_t steps = 0;
        torch::Tensor lossSum;  // on the device, fetched when the line is written
        double hits = 0.0;   // pixels right, of the logged step
        double valid = 0.0;  // labelled pixels, of the logged step
        double start = 0.0;  // clock()
    } window;
    void resetLogWindow()
    {
        window = LogWindow{};
        window.start = clock();
    }
    std::int64_t totalIterations() const;
    // Steps of this world's size from the start of the run to the current position: the
    // iteration count when the world size never changed, and what the schedule and the end of
    // the run follow when a resume changed it.
    std::int64_t position() const { return std::int64_t(epoch) * loader->batchesPerEpoch() + batchInEpoch; }
};

void Trainer::Impl::openPacks()
{
    try {
        trainPack = std::make_unique<pack::PackReader>(config.trainPack);
        if (!config.valPack.empty())
            valPack = std::make_unique<pack::PackReader>(config.valPack);
    } catch (const pack::PackError& error) {
        throw EngineError(std::string("refusing to train on a bad pack: ") + error.what());
    }
    const auto& classes = trainPack->spec().classes;
    if (classes.empty() || trainPack->size() == 0)
        throw EngineError(config.trainPack + ": pack has no classes or no records");
    if (config.classes != 0 && config.classes != int(classes.size()))
        throw EngineError(config.trainPack + ": pack has " + std::to_string(classes.size()) + " classes, config asks for " +
                          std::to_string(config.classes));
    config.classes = int(classes.size());
    if (valPack && valPack->spec().classes.size() != classes.size())
        throw EngineError(config.valPack + ": validation pack has " + std::to_string(valPack->spec().classes.size()) +
                          " classes, the training pack " + std::to_string(classes.size()));
    for (const auto& c : classes)
        classNames.push_back(c.name);
    const auto& spec = trainPack->spec();
    if (config.cropHeight > int(spec.height) || config.cropWidth > int(spec.width))
        throw EngineError(config.trainPack + ": the crop " + std::to_string(config.cropHeight) + "x" +
                          std::to_string(config.cropWidth) + " is larger than its images (" + std::to_string(spec.height) +
                          "x" + std::to_string(spec.width) + "); crop within them, or 0 for whole images");
    if (std::int64_t(trainPack->size()) < std::int64_t(config.batchSize) * world)
        throw EngineError(config.trainPack + ": " + std::to_string(trainPack->size()) +
                          " records are fewer than one batch of " + std::to_string(config.batchSize) +
                          (world > 1 ? " on each of " + std::to_string(world) + " ranks" : std::string()));
}

void Trainer::Impl::placeTrainingData()
{
    double deviceMemory = 0.0;
    if (device.is_cuda() && config.dataOnDevice == "auto")
        if (const auto monitor = GpuMonitor::open({device.has_index() ? int(device.index()) : 0}))
            for (const auto& gpu : monitor->sample())
                deviceMemory = gpu.memoryTotal;
    if (DeviceResidentPack::wanted(config.dataOnDevice, *trainPack, device, deviceMemory, dataNote))
        residentTrain = std::make_unique<DeviceResidentPack>(*trainPack, device);
}

void Trainer::Impl::computeClassWeights()
{
    std::vector<std::uint64_t> pixels, imagePixels;
    for (const auto& c : trainPack->spec().classes) {
        pixels.push_back(c.pixelCount);
        imagePixels.push_back(c.imagePixelCount);
    }
    if (config.classWeighting == "median")
        classWeights = pack::medianFrequencyWeights(pixels, imagePixels);
    else if (config.classWeighting == "sqrt-median")
        classWeights = pack::sqrtMedianFrequencyWeights(pixels, imagePixels);
    else if (config.classWeighting == "inverse")
        classWeights = pack::inverseFrequencyWeights(pixels);
    double sum = 0.0;
    for (double w : classWeights)
        sum += w;
    if (!classWeights.empty() && !(sum > 0.0))
        throw EngineError(config.trainPack + ": the pack header counts no labelled pixels, so class weights are undefined");
}

void Trainer::Impl::buildModel(bool resuming)
{
    torch::manual_seed(config.seed);  // the same seed gives the same initial weights
    model = ModelRegistry::instance().create(config.model, config.classes);
    if (!config.encoderWeights.empty())
        loadEncoderWeights(*model, config.model, config.encoderWeights);
    model->to(device);
    if (!resuming && !config.initFrom.empty())
        initialiseFrom(config.initFrom);
    if (config.weightAverageDecay > 0)
        average = std::make_unique<WeightAverage>(*model, config.weightAverageDecay);
}

// Checked before loading, so a wrong file is named with what differs rather than with the first
// tensor whose shape LibTorch finds wrong.
void Trainer::Impl::initialiseFrom(const std::string& checkpoint)
{
    const auto state = Checkpoint::readState(checkpoint);
    if (state.contains("config")) {
        const TrainConfig source = trainConfigFromJson(state.at("config"), checkpoint);
        if (source.model != config.model)
            throw EngineError(checkpoint + ": --init-from checkpoint holds a " + source.model + " model, this run trains " +
                              config.model + " (use --model " + source.model + ")");
        if (source.classes != config.classes)
            throw EngineError(checkpoint + ": --init-from checkpoint predicts " + std::to_string(source.classes) +
                              " classes, the training pack has " + std::to_string(config.classes));
    }
    Checkpoint::loadWeights(checkpoint, *model, device);
}

void Trainer::Impl::buildOptimizer()
{
    optimizer = makeOptimizer(config, model->parameters());
}

std::unique_ptr<CheckpointSnapshot> Trainer::Impl::makeCheckpointSnapshot() const
{
    // The copy's architecture comes from the registry; its random initialisation must not move the
    // run's random stream (the seed decides the shuffle and the augmentation), so it is put back.
    auto generator = at::detail::getDefaultCPUGenerator();
    const auto randomState = generator.get_state();
    auto copy = ModelRegistry::instance().create(config.model, config.classes);
    generator.set_state(randomState);
    auto optimizerCopy = makeOptimizer(config, copy->parameters(), /*fusedSteps=*/false);
    return std::make_unique<CheckpointSnapshot>(copy, std::move(optimizerCopy), device.is_cuda());
}

void Trainer::Impl::prepareRunDirectory(bool resuming)
{
    if (config.runDir.empty())
        throw EngineError("training configuration: runDir is empty");
    if (!leader())
        return;  // rank 0 alone writes the run directory
    const run::RunLayout files = layout();
    std::error_code error;
    fs::create_directories(files.checkpointsFolder(), error);
    if (error)
        throw EngineError(config.runDir + ": cannot create the run directory (" + error.message() + ")");
    runLock = std::make_unique<run::RunLock>(config.runDir);  // before anything in the folder changes
    if (!resuming) {
        if (files.canResume())
            throw EngineError(config.runDir + ": already holds a run; resume it (--resume) or choose another directory");
        fs::remove(files.metricsFile(), error);  // leftovers of a run that never checkpointed
    }
}

// After a resume was accepted: a refused one leaves config.json, log.txt and metrics.jsonl as
// they were (issue 46.10).
void Trainer::Impl::openRunRecords(bool resuming)
{
    if (!leader())
        return;
    const run::RunLayout files = layout();
    saveTrainConfig(config, files.configFile().string());
    logFile = std::make_unique<run::AppendOnlyFile>(files.logFile().string());
    metricsLog = std::make_unique<run::MetricsWriter>(files.metricsFile());
    if (resuming)
        metricsLog->forgetAfter(iteration);  // the iterations it logged after the checkpoint come again
}

nlohmann::json Trainer::Impl::state() const
{
    return {{"epoch", epoch},
            {"batchInEpoch", batchInEpoch},
            {"worldSize", world},
            {"iteration", iteration},
            {"lastValidatedEpoch", validationCadence.lastEpoch()},
            {"bestMeanIoU", bestMeanIoU},
            {"elapsedSeconds", elapsed()},
            {"lossScale", scaler ? scaler->scale() : 1.0},
            {"model", config.model},
            {"classes", config.classes},
            {"classNames", classNames},
            {"classWeights", classWeights},
            {"height", trainPack->spec().height},
            {"width", trainPack->spec().width},
            {"config", toJson(config)},
            {"budget", budget ? budget->state() : nlohmann::json()}};
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
    epoch = saved.at("epoch").get<int>();
    // A resume goes on counting from the last validation (a run stopped every few epochs must
    // still validate); a checkpoint from before the count was kept: the last multiple.
    validationCadence = ValidationCadence(saved.value("lastValidatedEpoch", epoch - epoch % std::max(1, config.valEpochs)));
    batchInEpoch = saved.at("batchInEpoch").get<std::int64_t>();
    // Another world size splits an epoch into another number of batches: continue after the
    // same number of samples (rounded down: a few may be seen twice, none skipped).
    const int savedWorld = saved.value("worldSize", 1);
    if (savedWorld != world)
        batchInEpoch = batchInEpoch * savedWorld / world;
    iteration = saved.at("iteration").get<std::int64_t>();
    bestMeanIoU = saved.value("bestMeanIoU", -1.0);
    elapsedBefore = saved.value("elapsedSeconds", 0.0);
    if (budget)
        budget->restore(saved.value("budget", nlohmann::json()));
    if (scaler->enabled())  // an fp16 run resumed without CUDA must not scale fp32 gradients
        scaler->setScale(saved.value("lossScale", scaler->scale()));
}

// Parameters and inputs channels-last (NHWC) on a GPU, for cuDNN's fast kernels, and on a CPU
// training in bf16, where oneDNN's AMX convolutions take NHWC as is (NCHW costs a reorder of
// every activation). fp32 on a CPU stays NCHW: measured no faster in NHWC (docs/BENCHMARKS.md).
bool Trainer::Impl::channelsLast() const
{
    return config.channelsLast && (device.is_cuda() || autocasts(amp, device));
}

// A new run refuses a precision this device cannot compute; a resumed one (moved to another
// machine) goes on in fp32 instead, with a note.
void Trainer::Impl::resolvePrecision(bool resuming)
{
    const bool modelBf16 = ModelRegistry::instance().trainsInBf16OnCpu(config.model);
    amp = resolveAmp(config.amp, device, cpuComputesBf16(), modelBf16);
    std::string problem;
    if (amp == "fp16" && !device.is_cuda())
        problem = "amp fp16 needs a CUDA device, this run would train on " + device.str() + " (use --amp bf16, auto or none)";
    else if (amp == "bf16" && !device.is_cuda() && !cpuComputesBf16())
        problem = "amp bf16 on a CPU needs bf16 instructions (AVX512-BF16 or AMX), which this CPU lacks: it would be "
                  "emulated, slower than fp32 (use --amp auto or none)";
    else if (amp == "bf16" && !device.is_cuda() && !modelBf16)
        problem = "model " + config.model + " does not train in bf16 on a CPU (an op without a bf16 CPU backward, "
                  "such as MobileNetV2's ReLU6); use --amp auto or none, or deeplabv3plus-resnet18";
    if (problem.empty())
        return;
    if (!resuming)
        throw EngineError("training configuration: " + problem);
    startNote += (startNote.empty() ? "" : "; ") + std::string("training goes on in fp32: ") + problem;
    amp = "none";
}

void Trainer::Impl::saveCheckpoint(const fs::path& file)
{
    settleVerdicts();  // no file of a run that diverged meanwhile
    synchroniseBuffers();  // a collective: every rank takes part, rank 0 writes
    requireFiniteModel(file);  // on every rank: their parameters and buffers are the same
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
        double writeSeconds = leader() ? std::max(now - started, checkpointWriter->lastWriteSeconds()) : 0.0;
        if (communicator) {
            // Only rank 0 writes: every rank paces the next write by its time.
            auto shared = torch::tensor(writeSeconds, torch::kDouble).to(device);
            communicator->sum(shared);
            writeSeconds = shared.cpu().item<double>();
        }
        checkpointCadence->written(now, writeSeconds);
    }
}

bool Trainer::Impl::epochCheckpointDue()
{
    bool due = checkpointCadence->due(clock());
    if (communicator && checkpointCadence->interval() > 0) {
        // Writing is a collective (rank 0 writes, every rank takes part) and the ranks' clocks
        // differ: they write when any of them finds it due.
        auto flag = torch::tensor(due ? 1.0 : 0.0, torch::kDouble).to(device);
        communicator->sum(flag);
        due = flag.cpu().item<double>() > 0.0;
    }
    return due;
}

void Trainer::Impl::requireFiniteModel(const fs::path& file)
{
    // The loss check comes before a step; a step that makes the parameters NaN/inf (an absurd
    // learning rate) shows only in the next loss, which may never come: checked here, before any
    // file could hold them as best.pt or last.pt.
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> finite;
    for (const auto& parameter : model->parameters())
        finite.push_back(torch::isfinite(parameter).all());
    for (const auto& buffer : model->buffers())
        if (buffer.is_floating_point())
            finite.push_back(torch::isfinite(buffer).all());
    if (finite.empty() || torch::stack(finite).all().item<bool>())
        return;
    throw NonFiniteParameters("parameters became NaN/infinite by iteration " + std::to_string(iteration) + " (epoch " +
                              std::to_string(epoch + 1) + ") while the loss was finite; " + file.filename().string() +
                              " was not written, the last good checkpoint is kept. Try a lower learning rate.");
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

void Trainer::Impl::synchroniseBuffers()
{
    // Batch norm keeps per-replica batch statistics in training; its running statistics are
    // averaged over the ranks before they are used (validation) or saved (checkpoints).
    if (!communicator)
        return;
    torch::NoGradGuard noGrad;
    for (auto& buffer : model->buffers()) {
        if (!buffer.is_floating_point())
            continue;  // num_batches_tracked is the same everywhere
        auto contiguous = buffer.contiguous();
        communicator->sum(contiguous);
        buffer.copy_(contiguous.div_(double(world)));
    }
}

void Trainer::Impl::joinWorld()
{
    if (!communicator)
        return;
    checkSamePacksEverywhere();
    // One starting point for every replica: rank 0's parameters and buffers (after a restore
    // and the channels-last conversion), as DistributedDataParallel does on construction.
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> state;
    for (auto& parameter : model->parameters())
        state.push_back(parameter.data());
    for (auto& buffer : model->buffers())
        state.push_back(buffer);
    communicator->broadcast(state, 0);
    std::vector<torch::Tensor> parameters;
    for (auto& parameter : model->parameters())
        parameters.push_back(parameter);
    gradientSync = config.gradientSync == "plain" ? makePlainGradientSync(*communicator, parameters)
                                                  : makeBucketedGradientSync(*communicator, parameters);
}

void Trainer::Impl::checkSamePacksEverywhere()
{
    // Ranks that would train on different data must not start: compare every rank's pack
    // checksums with rank 0's (their XOR differences summed: zero only when all agree).
    const auto mine = torch::tensor({std::int64_t(trainPack->storedChecksum()),
                                     std::int64_t(valPack ? valPack->storedChecksum() : 0)},
                                    torch::kLong)
                          .to(device);  // NCCL reduces CUDA tensors only
    auto leaders = mine.clone();
    communicator->broadcast({leaders}, 0);
    auto differs = mine.ne(leaders).to(torch::kLong);
    communicator->sum(differs);
    differs = differs.cpu();
    if (differs[0].item<std::int64_t>() > 0)
        throw EngineError(config.trainPack + ": the training pack differs between ranks (" +
                          std::to_string(differs[0].item<std::int64_t>()) +
                          " rank(s) hold another checksum than rank 0); give every rank the same file");
    if (differs[1].item<std::int64_t>() > 0)
        throw EngineError(config.valPack + ": the validation pack differs between ranks; give every rank the same file");
}

torch::Tensor Trainer::Impl::trainStep(const HostBatch& batch, bool measureAccuracy)
{
    model->train();
    torch::Tensor images, labels;
    if (residentTrain) {
        std::tie(images, labels) = residentTrain->gather(batch.records);
        images = imagesToDevice(images, device);
    } else {
        images = imagesToDevice(batch.images, device);
        labels = batch.labels.to(device, /*non_blocking=*/batch.labels.is_pinned());
    }
    labels = labels.to(torch::kLong);
    fitCropToProgress();
    if (augmenter->enabled()) {
        // The transforms depend only on (seed, epoch, batch, rank): resuming redraws them exactly,
        // and each rank draws its own.
        std::uint64_t seed = mix(mix(config.seed) ^ mix(std::uint64_t(epoch) << 32 | std::uint64_t(batch.index)));
        if (rank > 0)
            seed = mix(seed ^ std::uint64_t(rank));
        // Labels on the host only where the draw reads them (class-uniform crops).
        const auto transforms = batch.labels.defined() ? augmenter->draw(batch.labels, seed) : augmenter->draw(batch.size(), seed);
        std::tie(images, labels) = augmenter->apply(images, labels, transforms);
    }
    const auto input = normaliseImages(images, channelsLast());

    const double lr = schedule->at(position()) * (config.scaleLearningRate ? double(world) : 1.0);
    for (auto& group : optimizer->param_groups())
        group.options().set_lr(lr);
    // Set to none rather than zeroed (LibTorch 2.x's default, not 1.13's): backward then hands
    // each parameter its gradient instead of adding it to a zeroed one, a pass less per step.
    for (auto& parameter : model->parameters())
        parameter.mutable_grad().reset();
    if (gradientSync)
        gradientSync->beginStep();
    // Micro-batch k takes samples k, k + parts, ...: with the ranks of a data-parallel run doing
    // the same, rank r's batch is exactly micro-batch r of one process with accumulate = world.
    const int parts = config.accumulate;
    auto lossSum = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device));
    for (int part = 0; part < parts; ++part) {
        const auto rows = torch::arange(part, input.size(0), parts, torch::TensorOptions().dtype(torch::kLong).device(device));
        if (gradientSync)
            gradientSync->setAccumulating(part + 1 < parts);
        const bool last = part + 1 == parts;
        lossSum += forwardBackward(parts == 1 ? input : input.index_select(0, rows),
                                   parts == 1 ? labels : labels.index_select(0, rows), 1.0 / parts,
                                   measureAccuracy && last);
    }
    if (gradientSync)
        gradientSync->finishStep();
    auto meanLoss = lossSum / double(parts);
    if (config.debugNanAtIteration >= 0 && iteration == config.debugNanAtIteration)
        meanLoss = meanLoss * std::numeric_limits<double>::quiet_NaN();
    // Decisions that end a step or the run are agreed by every rank, so none is left alone in a
    // collective: a NaN/Inf loss anywhere, a stop request anywhere. On a GPU the host reads them a
    // step late (the device is never waited for here); on a CPU at once, and then a non-finite
    // loss is never stepped on. A diverged run ends without saving what its last steps did.
    verdicts->post(iteration, position(), meanLoss, stopRequested());
    heed(verdicts->take());
    if (scaler->unscaleAndCheck(model->parameters())) {
        optimizer->step();
        if (average)
            average->update(iteration);
    }
    return meanLoss;
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

void Trainer::Impl::fitCropToProgress()
{
    if (!crops->progressive())
        return;
    const double progress = schedule->progress(position());
    const auto crop = crops->cropAt(progress);
    stepCost = crops->relativeCost(progress);
    if (crop == cropInUse)
        return;
    cropInUse = crop;
    augmenter->setCrop(crop.first, crop.second);
    say(format("crops %.0fx%.0f from iteration %.0f (%.0f %% of the run)", double(crop.first), double(crop.second),
               double(iteration), 100.0 * progress));
}

torch::Tensor Trainer::Impl::forwardBackward(const torch::Tensor& input, const torch::Tensor& labels, double share,
                                             bool measureAccuracy)
{
    torch::Tensor logits;
    {
        AutocastScope autocast(amp, device);
        logits = model->forward(input);
    }
    const auto value = (*loss)(logits, labels);
    // Always backward, also for a NaN loss: the other ranks' gradient all-reduces wait for ours.
    (value * (scaler->scale() * share)).backward();
    if (measureAccuracy) {
        torch::NoGradGuard noGrad;
        const auto valid = labels.ne(SegmentationLoss::kIgnoreIndex);
        window.hits = logits.argmax(1).eq(labels).logical_and(valid).sum().item<double>();
        window.valid = valid.sum().item<double>();
    }
    return value.detach().to(torch::kDouble);
}

SegmentationMetrics Trainer::Impl::validateNow(TrainOutcome& outcome)
{
    ValidationSettings settings;
    settings.device = device;
    // One whole image at a time on a CPU: a batch of 8 at 360x480 overflows the caches and took
    // 13.3 s for CamVid val against 8.7 s one by one (docs/BENCHMARKS.md); GPUs want the batch.
    settings.batchSize = device.is_cuda() ? config.batchSize : 1;
    settings.amp = amp;
    settings.correction = ClassPriorCorrection(classWeights);
    settings.channelsLast = channelsLast();
    settings.pinMemory = device.is_cuda();
    settings.communicator = communicator.get();
    settleVerdicts();
    recordState(run::RunState::Validating);
    lastValidatedIteration = iteration;
    validationCadence.validated(epoch + (batchInEpoch >= loader->batchesPerEpoch() ? 1 : 0));
    const double started = clock();
    // Validation and the best checkpoint see the averaged weights; training goes on with its own.
    WeightAverage::Scope averaged(average.get());
    synchroniseBuffers();
    const auto metrics = validate(*model, *valPack, *loss, settings);
    if (budget)
        budget->validationTook(clock() - started);
    if (metricsLog) {
        auto record = run::MetricsRecord::val(epoch + 1, iteration);
        record.loss = metrics.loss;
        record.accuracy = metrics.globalAccuracy;
        record.meanAccuracy = metrics.meanClassAccuracy;
        record.meanIoU = metrics.meanIoU;
        record.weightedIoU = metrics.weightedIoU;
        record.classIoU = metrics.classIoU;
        record.elapsedSeconds = elapsed();
        metricsLog->write(record);
    }
    say(format("val    epoch %.0f iter %.0f: loss %.4f  global acc %.4f  mIoU %.4f", epoch + 1, double(iteration),
               metrics.loss, metrics.globalAccuracy, metrics.meanIoU) +
        format("  mean acc %.4f  weighted IoU %.4f", metrics.meanClassAccuracy, metrics.weightedIoU));
    outcome.validated = true;
    outcome.lastValidation = metrics;
    // A validation whose loss is not finite (diverged weights) scores nothing: its mIoU may still
    // beat an untrained model's, but such weights are never "best" (issue 46.10).
    if (std::isfinite(metrics.loss) && metrics.meanIoU > bestMeanIoU) {
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
    const double seconds = clock() - window.start;
    // Global figures: losses and accuracy are means over every rank, images/s their sum.
    auto totals = torch::stack({window.lossSum.defined() ? window.lossSum.to(torch::kCPU) : torch::zeros({}, torch::kDouble),
                                torch::tensor(double(window.steps), torch::kDouble),
                                torch::tensor(double(window.images), torch::kDouble), torch::tensor(window.hits, torch::kDouble),
                                torch::tensor(window.valid, torch::kDouble)});
    if (communicator) {
        totals = totals.to(device);
        communicator->sum(totals);
        totals = totals.cpu();
    }
    const auto total = [&](int i) { return totals[i].item<double>(); };
    const double imagesPerSecond = seconds > 0 ? total(2) / seconds : 0.0;
    const double meanLoss = total(0) / std::max(1.0, total(1));
    const double accuracy = total(3) / std::max(1.0, total(4));
    const double lr = schedule->at(position() - 1) * (config.scaleLearningRate ? double(world) : 1.0);
    if (metricsLog) {
        auto record = run::MetricsRecord::train(epoch + 1, iteration);
        record.loss = meanLoss;
        record.accuracy = accuracy;
        record.learningRate = lr;
        record.imagesPerSecond = imagesPerSecond;
        record.elapsedSeconds = elapsed();
        metricsLog->write(record);
    }
    if (device.is_cuda())
        recordGpus();
    say(format("train  epoch %.0f iter %.0f: loss %.4f  acc %.4f  lr %.2e", epoch + 1, double(iteration), meanLoss,
               accuracy, lr) +
        format("  %.1f img/s", imagesPerSecond));
    resetLogWindow();
}

void Trainer::Impl::recordRun(std::int64_t total)
{
    // The first record of every session (a new run, or a resume): what any reader needs for
    // progress and an ETA without guessing, and which SegStudio wrote the run.
    if (!metricsLog)
        return;
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char started[32];
    std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    run::MetricsRecord record;
    record.kind = run::MetricsRecord::Kind::Run;
    record.epoch = epoch + 1;
    record.iteration = iteration;
    record.run.segstudioVersion = SEGSTUDIO_VERSION;
    record.run.model = config.model;
    record.run.device = device.str();
    record.run.worldSize = world;
    record.run.batch = config.batchSize;
    record.run.epochs = budgeted() ? (plan() ? plan()->epochs : 0) : config.epochs;
    record.run.iterationsPerEpoch = loader->batchesPerEpoch();
    record.run.totalIterations = budgeted() && !plan() ? 0 : total;  // 0: not planned yet
    record.run.timeBudgetSeconds = config.timeBudgetSeconds;
    record.run.resumedAtEpoch = epoch + 1;
    record.run.started = started;
    metricsLog->write(record);
}

void Trainer::Impl::recordState(run::RunState state, const std::string& reason)
{
    // The epoch being worked in; once the last one is done the counter points past it, and a
    // finished run must say "12 of 12", not "13 of 12".
    if (metricsLog)
        metricsLog->write(run::MetricsRecord::stateChange(state, std::min(epoch + 1, std::max(1, epochLimit())), iteration, reason));
}

void Trainer::Impl::recordGpus()
{
    // Each rank samples its own GPU (another machine's cannot be seen from here); one row per
    // rank, summed so rank 0 can write them all. A collective: every CUDA rank calls it.
    if (!gpuMonitorOpened) {
        gpuMonitorOpened = true;
        gpuMonitor = GpuMonitor::open({device.has_index() ? int(device.index()) : 0});
    }
    auto rows = torch::zeros({world, 4}, torch::kDouble);
    if (gpuMonitor)
        for (const auto& gpu : gpuMonitor->sample()) {
            rows[rank][0] = double(gpu.index);
            rows[rank][1] = gpu.utilization;
            rows[rank][2] = gpu.memoryUsed;
            rows[rank][3] = gpu.memoryTotal;
        }
    if (communicator) {
        rows = rows.to(device);
        communicator->sum(rows);
        rows = rows.cpu();
    }
    if (!metricsLog)
        return;
    run::MetricsRecord record;
    record.kind = run::MetricsRecord::Kind::System;
    record.epoch = epoch + 1;
    record.iteration = iteration;
    record.elapsedSeconds = elapsed();
    const auto values = rows.accessor<double, 2>();
    for (int r = 0; r < world; ++r)
        if (values[r][3] > 0)  // a rank without NVML leaves its row empty
            record.gpus.push_back({int(values[r][0]), values[r][1], values[r][2], values[r][3]});
    if (!record.gpus.empty())
        metricsLog->write(record);
}

void Trainer::Impl::recordFailure(const std::string& reason) noexcept
{
    // The failure may be the metrics file itself (a full disk): then the exit code and stderr
    // tell it, and the file keeps its last state.
    try {
        recordState(run::RunState::Failed, reason);
    } catch (const std::exception&) {
    }
}

bool Trainer::Impl::stopAfterEpochAgreed()
{
    // Asked once per epoch; every rank must agree, or the ranks would part ways at a collective.
    bool requested = stopAfterEpochRequested();
    if (communicator) {
        auto flag = torch::tensor(requested ? 1.0 : 0.0, torch::kDouble).to(device);
        communicator->sum(flag);
        requested = flag.cpu().item<double>() > 0.0;
    }
    return requested;
}

void Trainer::Impl::say(const std::string& line)
{
    if (!leader())
        return;  // one voice: rank 0 speaks for the run
    if (progress)
        progress(line);  // before the file: the line reaches the user even when the disk is full
    if (logFile)
        logFile->appendLine(line);
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
    BudgetController::Settings settings;
    settings.budgetSeconds = config.timeBudgetSeconds;
    settings.iterationsPerEpoch = loader->batchesPerEpoch();
    settings.valEpochs = config.valEpochs;
    settings.logInterval = config.logInterval;
    settings.warmupIterations = config.warmupIterations;
    settings.validates = valPack != nullptr;
    if (valPack) {
        const auto& train = trainPack->spec();
        const double trainPixels = config.cropHeight > 0 ? double(config.cropHeight) * config.cropWidth
                                                         : double(train.height) * train.width;
        const double imagesPerRank = std::ceil(double(valPack->size()) / double(world));
        const auto& val = valPack->spec();
        settings.validationStepsGuess =
            imagesPerRank / double(config.batchSize) * double(val.height) * double(val.width) / trainPixels;
    }
    BudgetController::Hooks hooks;
    hooks.clock = [this] { return clock(); };
    hooks.agree = [this](BudgetPlan& next) { agreeOnPlan(next); };
    hooks.say = [this](const std::string& line) { say(line); };
    hooks.record = [this](const BudgetPlan& next) { recordPlan(next); };
    budget = std::make_unique<BudgetController>(settings, *schedule, *crops, std::move(hooks));
}

void Trainer::Impl::agreeOnPlan(BudgetPlan& next)
{
    if (!communicator)
        return;
    // Rank 0's plan is every rank's: its end decides the collectives the ranks take part in.
    auto values = torch::tensor({leader() ? double(next.totalIterations) : 0.0,
                                 leader() && next.validateOnlyAtEnd ? 1.0 : 0.0,
                                 leader() ? double(next.validationEpochs) : 0.0},
                                torch::kDouble)
                      .to(device);
    communicator->sum(values);
    values = values.cpu();
    next.totalIterations = std::int64_t(values[0].item<double>());
    next.validateOnlyAtEnd = values[1].item<double>() > 0.0;
    next.validationEpochs = std::max(1, int(values[2].item<double>()));
    const std::int64_t perEpoch = loader->batchesPerEpoch();
    next.epochs = int((next.totalIterations + perEpoch - 1) / perEpoch);
}

void Trainer::Impl::recordPlan(const BudgetPlan& next)
{
    if (metricsLog)
        metricsLog->write(run::MetricsRecord::plan(epoch + 1, iteration, next.totalIterations, next.epochs,
                                                   config.timeBudgetSeconds, next.note));
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
    if (d.communicator) {
        d.rank = d.communicator->rank();
        d.world = d.communicator->size();
    }
    d.config = std::move(config);
    d.device = chooseDevice(d.config.device);
    d.resolvePrecision(resuming);
    makeCurrentDevice(d.device);
    configureRuntime(d.config.threads, d.config.deterministic, d.config.cudnnBenchmark);
    d.openPacks();
    d.computeClassWeights();
    d.buildModel(resuming);
    d.buildOptimizer();
    d.verdicts = std::make_unique<StepVerdicts>(d.device, d.communicator.get(),
                                                d.config.verdictLag >= 0 ? std::optional<int>(d.config.verdictLag) : std::nullopt);
    d.checkpointWriter = std::make_unique<CheckpointWriter>([&d] { return d.makeCheckpointSnapshot(); });
    d.loss = std::make_unique<SegmentationLoss>(d.classWeights, d.device, d.config.hardPixelFraction);
    d.augmenter = std::make_unique<Augmenter>(AugmentOptions{d.config.flip, d.config.translate, d.config.scaleCrop,
                                                             d.config.scaleMin, d.config.scaleMax,
                                                             d.config.cropHeight, d.config.cropWidth,
                                                             d.config.colorJitter, d.config.classCrops});
    d.crops = std::make_unique<CropSchedule>(d.config.cropHeight, d.config.cropWidth, d.config.cropStartScale);
    BatchLoader::Options options;
    options.batchSize = d.config.batchSize;
    options.seed = d.config.seed;
    options.pinMemory = d.device.is_cuda();
    options.device = d.device;
    options.prefetch = d.config.prefetch;
    options.rank = d.rank;
    options.worldSize = d.world;
    d.placeTrainingData();
    options.copyImages = !d.residentTrain;
    options.copyLabels = !d.residentTrain || (d.config.classCrops > 0 && d.config.cropHeight > 0);
    d.loader = std::make_unique<BatchLoader>(*d.trainPack, options);
    d.schedule = std::make_unique<LrSchedule>(d.config, d.loader->batchesPerEpoch(), d.totalIterations());
    if (d.budgeted())
        d.createBudget();
    d.scaler = std::make_unique<LossScaler>(d.amp == "fp16" && d.device.is_cuda());
    d.prepareRunDirectory(resuming);
    // A checkpoint that cannot be resumed (damaged, another model) is refused before anything is
    // written: the run it belongs to keeps its record as it was (issue 46.10).
    if (resuming)
        d.restore(d.layout().lastCheckpoint().string());
    d.openRunRecords(resuming);
    try {
        // Steps done plus steps left in this world's size: after a resume with another number of
        // ranks the logged iteration count and the position in the data no longer agree.
        d.recordRun(d.iteration + std::max<std::int64_t>(0, d.totalIterations() - d.position()));
        if (d.plan())  // a resumed budgeted run goes on with its plan until it has measured its pace
            d.recordPlan(*d.plan());
        d.recordState(run::RunState::Starting);
        if (d.channelsLast()) {
            torch::NoGradGuard noGrad;
            for (auto& parameter : d.model->parameters())
                if (parameter.dim() == 4)
                    parameter.set_data(parameter.data().contiguous(at::MemoryFormat::ChannelsLast));
        }
        d.joinWorld();
    } catch (const std::exception& error) {
        d.recordFailure(error.what());
        throw;
    }
}

namespace {

TrainConfig configOfCheckpoint(const std::string& checkpoint)
{
    const auto state = Checkpoint::readState(checkpoint);
    if (!state.contains("config"))
        throw EngineError(checkpoint + ": checkpoint state has no training configuration");
    return trainConfigFromJson(state.at("config"), checkpoint);
}

}  // namespace

std::unique_ptr<Trainer> Trainer::resume(const std::string& runDir, int epochs, std::shared_ptr<Communicator> communicator,
                                         const std::string& device, std::int64_t maxIterations, int threads,
                                         double timeBudgetSeconds)
{
    // A run stopped (killed, a power cut) before its first checkpoint has only its config.json:
    // it is started again from the beginning, as the same run, rather than refused.
    const run::RunLayout files(runDir);
    const bool checkpointed = files.canResume();
    const std::string source = checkpointed ? files.lastCheckpoint().string() : files.configFile().string();
    if (!checkpointed && !fs::exists(files.configFile()))
        throw EngineError(runDir + ": nothing to resume (no checkpoints/last.pt, no config.json); start a new run with "
                                   "segstudio-train train --train-pack PACK -o " + runDir);
    TrainConfig config = checkpointed ? configOfCheckpoint(source) : loadTrainConfig(source);
    config.runDir = runDir;
    if (epochs > 0)
        config.epochs = epochs;
    if (!device.empty())
        config.device = device;
    if (maxIterations >= 0)
        config.maxIterations = maxIterations;
    if (threads >= 0)
        config.threads = threads;
    if (timeBudgetSeconds >= 0)
        config.timeBudgetSeconds = timeBudgetSeconds;
    std::unique_ptr<Trainer> trainer(new Trainer(std::move(config), checkpointed, std::move(communicator)));
    if (!checkpointed)
        trainer->m_impl->startNote = runDir + " stopped before its first checkpoint: starting it again from the beginning";
    return trainer;
}

Trainer::~Trainer() = default;

void Trainer::setProgress(ProgressFunction progress)
{
    m_impl->progress = std::move(progress);
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
    return m_impl->classNames;
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

TrainOutcome Trainer::Impl::train()
{
    auto& d = *this;
    outcome = TrainOutcome{};
    outcome.bestMeanIoU = d.bestMeanIoU;
    d.sessionStart = d.clock();
    d.checkpointCadence = std::make_unique<CheckpointCadence>(d.config.checkpointIntervalSeconds, d.device.is_cuda());
    d.checkpointCadence->started(d.sessionStart);
    // A run that ended at its budget, resumed with a larger one: its saved plan ends here, so the
    // rest of the new budget is planned now from the last session's pace (issue 46.8), the
    // schedule re-planned from where it ended.
    if (d.budget && d.plan() && d.plan()->totalIterations <= d.position() && d.config.timeBudgetSeconds > d.elapsedBefore)
        d.budget->extendPastTheEnd(d.position(), d.elapsedBefore, d.elapsed());
    if (d.budget)
        d.budget->startSession();
    if (!d.startNote.empty())
        d.say(d.startNote);
    d.say("data: " + d.dataNote);
    const std::string ranks = d.communicator ? " x " + std::to_string(d.world) + " ranks (" + d.communicator->backend() + ")"
                                             : std::string();
    d.say("training " + d.config.model + " on " + d.device.str() + ranks + (d.amp == "none" ? "" : " in " + d.amp) + ": " + std::to_string(d.trainPack->size()) +
          " images " + std::to_string(d.trainPack->spec().height) + "x" + std::to_string(d.trainPack->spec().width) + ", " +
          std::to_string(d.config.classes) + " classes, " + std::to_string(d.loader->batchesPerEpoch()) +
          " batches/epoch, from epoch " + std::to_string(d.epoch + 1) + " iteration " + std::to_string(d.iteration));
    if (d.budgeted())
        d.say(format("time budget %.0f s, %.0f s of it used: the first steps measure the pace, then the plan follows",
                     d.config.timeBudgetSeconds, d.elapsedBefore));
    d.recordState(run::RunState::Training);
    std::int64_t sessionImages = 0;
    d.resetLogWindow();
    bool first = true;

    torch::Tensor lastLoss;  // on the device until the run ends
    auto finish = [&](TrainOutcome::Status status, std::string message) {
        d.loader->stop();
        d.checkpointWriter->wait();  // "finished" and "stopped" promise a checkpoint on disk
        if (lastLoss.defined())
            outcome.lastLoss = lastLoss.item<double>();
        outcome.status = status;
        outcome.message = std::move(message);
        outcome.epochsCompleted = d.epoch;
        outcome.iterations = d.iteration;
        const double seconds = d.clock() - d.sessionStart;
        outcome.imagesPerSecond = seconds > 0 ? double(sessionImages) / seconds : 0.0;
        d.say(outcome.message);
        d.recordState(status == TrainOutcome::Status::Finished  ? run::RunState::Finished
                      : status == TrainOutcome::Status::Stopped ? run::RunState::Stopped
                                                                : run::RunState::Failed,
                      outcome.message);
        return outcome;
    };

    bool stopAtEpochEnd = false;
    const auto stopped = [&] {
        return finish(TrainOutcome::Status::Stopped, "stopped at epoch " + std::to_string(d.epoch + 1) + " iteration " +
                                                         std::to_string(d.iteration) + "; checkpoint written, continue with --resume " +
                                                         d.config.runDir);
    };
    while (d.epoch < d.epochLimit() && d.position() < d.totalIterations()) {
        d.loader->start(d.epoch, d.batchInEpoch);
        while (auto batch = d.loader->next()) {
            // The run's last step logs too, so a run shorter than the log interval still records
            // its loss and learning rate (the same on every rank: the limit is shared).
            const bool lastStep = std::int64_t(d.epoch) * d.loader->batchesPerEpoch() + batch->index + 1 >= d.totalIterations();
            const bool logNow = (d.iteration + 1) % d.config.logInterval == 0 || lastStep;
            const auto stepLoss = d.trainStep(*batch, logNow);
            ++d.iteration;
            d.batchInEpoch = batch->index + 1;
            if (first)
                outcome.firstLoss = stepLoss.item<double>();  // once per session
            first = false;
            lastLoss = stepLoss;
            sessionImages += batch->size();
            d.window.images += batch->size();
            d.window.lossSum = d.window.lossSum.defined() ? d.window.lossSum + stepLoss : stepLoss;
            ++d.window.steps;
            if (logNow)
                d.logTraining();
            if (d.hook) {
                d.checkpointWriter->wait();  // the hook sees the run folder settled
                d.hook(d.iteration);
            }
            if (d.budget)  // may move the end (a collective in data parallel: every rank, same step)
                d.budget->stepDone(d.position(), d.elapsed(), d.stepCost, d.totalIterations());
            // A data-parallel stop is agreed inside the step (a collective), so every rank stops at
            // the same position; one process honours a request at once. After an epoch's last
            // batch the epoch is closed first (its validation, the epoch count), so the checkpoint
            // never sits at the end of an epoch that a resume would not finish.
            if (d.stopAgreed || (!d.communicator && stopRequested())) {
                if (d.batchInEpoch < d.loader->batchesPerEpoch()) {
                    d.saveCheckpoint(d.layout().lastCheckpoint());
                    return stopped();
                }
                stopAtEpochEnd = true;
                break;
            }
            if (d.valPack && d.config.valInterval > 0 && d.iteration % d.config.valInterval == 0)
                d.validateNow(outcome);
            if (d.position() >= d.totalIterations())
                break;
        }
        d.loader->stop();
        const bool epochDone = d.batchInEpoch >= d.loader->batchesPerEpoch();
        const bool lastEpoch = d.epoch + 1 >= d.epochLimit() || d.position() >= d.totalIterations();
        const bool epochValidation = !(d.plan() && d.plan()->validateOnlyAtEnd);
        const int validationEpochs = d.plan() ? d.plan()->validationEpochs : d.config.valEpochs;
        // --val-interval may have validated this very iteration already (it divides the epoch).
        const bool validated = d.lastValidatedIteration == d.iteration;
        const bool periodDue = epochDone && d.validationCadence.dueAfterEpoch(d.epoch + 1, validationEpochs);
        if (d.valPack && !validated && ((epochValidation && periodDue) || lastEpoch))
            d.validateNow(outcome);  // still counted as the epoch just trained
        if (epochDone) {
            ++d.epoch;
            d.batchInEpoch = 0;
            if (d.config.checkpointEachEpoch && d.epoch < d.epochLimit() && d.position() < d.totalIterations() &&
                d.epochCheckpointDue())
                d.saveCheckpoint(d.layout().lastCheckpoint());
        }
        const bool more = d.epoch < d.epochLimit() && d.position() < d.totalIterations();
        if (epochDone && more && !stopAtEpochEnd && d.stopAfterEpochAgreed())
            stopAtEpochEnd = true;  // "stop after this epoch" (SIGUSR1, the GUI's button)
        if (stopAtEpochEnd && more) {
            d.saveCheckpoint(d.layout().lastCheckpoint());
            return stopped();
        }
    }
    d.saveCheckpoint(d.layout().lastCheckpoint());
    if (lastLoss.defined())
        outcome.lastLoss = lastLoss.item<double>();
    const std::string validation =
        d.valPack ? format("best val mIoU %.4f", d.bestMeanIoU) : std::string("no validation (no validation pack)");
    const std::string budget =
        d.budgeted() ? format("; %.0f s of the %.0f s budget (first planned %.0f iterations)", d.elapsed(),
                              d.config.timeBudgetSeconds, double(d.budget->firstPlannedIterations()))
                     : std::string();
    return finish(TrainOutcome::Status::Finished,
                  format("finished: %.0f epochs, %.0f iterations, last loss %.4f, ", d.epoch, double(d.iteration),
                         outcome.lastLoss) +
                      validation + budget);
}

}  // namespace segstudio::engine
