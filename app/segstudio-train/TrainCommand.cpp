#include "Commands.h"
#include "FiniteNumber.h"
#include "ImageSide.h"
#include "MetricsReport.h"
#include "TrainCommand.h"
#include "WholeNumber.h"
#include "WorkerLauncher.h"

#include "engine/distributed/Distributed.h"
#include "engine/runtime/EngineError.h"
#include "engine/runtime/DeviceCatalog.h"
#include "engine/models/ModelCatalog.h"
#include "engine/runtime/StopFlag.h"
#include "run/Duration.h"
#include "run/RunLayout.h"

#include <nlohmann/json.hpp>

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <map>
#include <set>
#include <thread>
#include <vector>

namespace segstudio::cli {

namespace {

struct TrainOptions {
    engine::TrainConfig config;
    std::string configFile;
    std::string resumeDir;
    bool recipe = false;
    // Data-parallel launch (WorkerLauncher); the workers themselves ignore these.
    int nproc = 0;
    int gpus = 0;
    std::string devices;
    int nnodes = 1;
    int nodeRank = 0;
    std::string master;
    std::string jobId;
    bool oversubscribe = false;
    CLI::Option* nprocOption = nullptr;  // given at all: --nproc 0 is an error, not "no launch"
    CLI::Option* gpusOption = nullptr;
    // Options the user gave, with the config.json key each one sets: only these override --config.
    std::vector<std::pair<CLI::Option*, std::string>> given;
};

template <typename T>
void bindOption(CLI::App& command, TrainOptions& options, const std::string& flags, T& field, const std::string& key,
          const std::string& help)
{
    options.given.emplace_back(command.add_option(flags, field, help)->capture_default_str(), key);
}

// A duration option (90s, 30m, 1h30m) read into seconds; words, if any, stand for fixed values.
void bindDuration(CLI::App& command, TrainOptions& options, const std::string& flag, double& seconds,
                  const std::string& key, std::map<std::string, double> words, const std::string& help)
{
    auto* option = command.add_option_function<std::string>(
        flag,
        [&seconds, flag, words](const std::string& text) {
            if (text.empty())
                throw CLI::ValidationError(flag, "the value is empty: give a duration, e.g. 90s, 30m, 2h or 1h30m");
            if (const auto word = words.find(text); word != words.end()) {
                seconds = word->second;
                return;
            }
            const auto parsed = run::parseDuration(text);
            if (!parsed) {
                std::string alternatives;
                for (const auto& [name, value] : words)
                    alternatives += name + ", ";
                throw CLI::ValidationError(flag, "'" + text + "' is not " + (alternatives.empty() ? "" : alternatives + "nor ") +
                                                     "a duration: give a number with its unit, e.g. 90s, 30m, 2h or 1h30m");
            }
            seconds = *parsed;
        },
        help);
    options.given.emplace_back(option, key);
}

std::string modelHelp()
{
    std::string text = "model name:";
    for (const auto& model : engine::availableModels())
        text += "\n  " + model.name + ": " + model.description;
    return text;
}

// What to train, from where, for how long.
void addRunOptions(CLI::App& command, TrainOptions& o)
{
    auto& c = o.config;
    command.add_option("--config", o.configFile, "start from this config.json (options given here override it)")
        ->check(CLI::ExistingFile);
    command.add_option("--resume", o.resumeDir, "continue the run in RUN_DIR where it stopped (with --epochs to extend)")
        ->check(CLI::ExistingDirectory);
    command.add_flag("--recipe", o.recipe,
                     "SegNet's published CamVid recipe: segnet, SGD momentum 0.9, lr 1e-3, L2 5e-4, batch 4, 100 epochs,\n"
                     "flip + 10 px translation, median-frequency weights (options given here still override it)");
    bindOption(command, o, "--train-pack", c.trainPack, "trainPack", "training pack (segstudio-train pack ...)");
    bindOption(command, o, "--val-pack", c.valPack, "valPack", "validation pack; empty = no validation");
    bindOption(command, o, "--run-dir,-o", c.runDir, "runDir", "run directory to create (config, metrics, checkpoints)");
    bindOption(command, o, "--model,-m", c.model, "model", modelHelp());
    bindOption(command, o, "--encoder-weights,--vgg-weights", c.encoderWeights, "encoderWeights",
               "pretrained encoder weights, a TorchScript archive (VGG-16 for segnet, MobileNetV2 for deeplabv3plus; docs/ENGINE.md)");
    bindOption(command, o, "--init-from", c.initFrom, "initFrom",
               "start from this checkpoint's weights (fine-tuning), or a run directory's (its best.pt, else last.pt); "
               "its model and class count must be this run's");
    bindOption(command, o, "--epochs,-e", c.epochs, "epochs", "epochs (the alternative to --time-budget)");
    bindDuration(command, o, "--time-budget", c.timeBudgetSeconds, "timeBudgetSeconds", {},
                 "train for this long (90s, 30m, 2h, 1h30m) instead of for --epochs: the trainer measures its pace and "
                 "plans the epochs and the learning-rate schedule so that training and validation end at the budget");
    bindDuration(command, o, "--checkpoint-interval", c.checkpointIntervalSeconds, "checkpointIntervalSeconds",
                 {{"auto", -1.0}, {"epoch", 0.0}},
                 "least time between two end-of-epoch checkpoints: epoch (each one), a duration (30s, 5m), or auto "
                 "(writes kept to about 2 % of the time: each epoch while they are quick, at most one a minute on a GPU); stops, the end and each new best are saved at once");
}

// The batch and what each step sees of it (augmentation, crops, the loss's pixels).
void addBatchOptions(CLI::App& command, TrainOptions& o)
{
    auto& c = o.config;
    bindOption(command, o, "--batch,-b", c.batchSize, "batchSize", "mini-batch size");
    bindOption(command, o, "--ema", c.weightAverageDecay, "weightAverageDecay",
               "validate and keep as best.pt an exponential moving average of the weights with this decay per step "
               "(0.999: about the last 1000 steps); 0 = off");
    bindOption(command, o, "--color-jitter", c.colorJitter, "colorJitter",
               "scale brightness, contrast and saturation by random factors in [1 - J, 1 + J] (e.g. 0.2); 0 = off");
    bindOption(command, o, "--class-crops", c.classCrops, "classCrops",
               "share of the training crops centred near a pixel of a class drawn uniformly from the sample's "
               "classes (class-uniform sampling, e.g. 0.5); needs a crop; 0 = off");
    bindOption(command, o, "--crop-start-scale", c.cropStartScale, "cropStartScale",
               "progressive crops: start on crops of this share of the crop's sides (e.g. 0.5) and "
               "grow them in four stages of the run to the full crop; 1 = off");
    bindOption(command, o, "--hard-pixels", c.hardPixelFraction, "hardPixelFraction",
               "train on the hardest share of each batch's pixels (top-k / OHEM loss, e.g. 0.25); 1 = all pixels");
    bindOption(command, o, "--max-iterations", c.maxIterations, "maxIterations", "stop after this many iterations (0 = no limit)");
}

// The optimiser, the schedule and the classes' weights.
void addOptimizerOptions(CLI::App& command, TrainOptions& o)
{
    auto& c = o.config;
    bindOption(command, o, "--optimizer", c.optimizer, "optimizer", "sgd | adam | adamw");
    bindOption(command, o, "--lr", c.learningRate, "learningRate", "initial learning rate");
    bindOption(command, o, "--momentum", c.momentum, "momentum", "SGD momentum");
    bindOption(command, o, "--weight-decay", c.weightDecay, "weightDecay",
                "weight decay: AdamW's decoupled decay, L2 for sgd and adam (-1 = 0.1 for adamw, 1e-2 for sgd and adam)");
    bindOption(command, o, "--schedule", c.schedule, "schedule", "none | step | cosine");
    bindOption(command, o, "--drop-period", c.dropPeriod, "dropPeriod", "step schedule: epochs between drops");
    bindOption(command, o, "--drop-factor", c.dropFactor, "dropFactor", "step schedule: lr multiplier per drop");
    bindOption(command, o, "--min-lr", c.minLearningRate, "minLearningRate", "cosine schedule: final learning rate");
    bindOption(command, o, "--warmup", c.warmupIterations, "warmupIterations", "linear warm-up iterations (-1 = a tenth of the run, at most 100)");
    bindOption(command, o, "--translate", c.translate, "translate", "random X/Y translation in pixels (0 = off)");
    o.given.emplace_back(command.add_flag("--flip,!--no-flip", c.flip, "random left/right reflection"), "flip");
    o.given.emplace_back(command.add_flag("--scale-crop", c.scaleCrop, "random scale 0.75-1.25 with crop/pad"), "scaleCrop");
    bindOption(command, o, "--crop-share", c.cropShare, "cropShare",
               "train on random crops of this share of each side of the pack's images, at least 144 x 192 and\n"
               "whole images where that is most of an image (0 or 1 = whole images; default 0.4: on CamVid's 360x480\n"
               "packs 144 x 192 crops, the best of 30 CPU-minutes; a 180x240 pack trains on whole images)");
    bindOption(command, o, "--crop-height", c.cropHeight, "cropHeight",
               "train on random crops this high instead of --crop-share's (with --crop-width)");
    bindOption(command, o, "--crop-width", c.cropWidth, "cropWidth",
               "train on random crops this wide (with --crop-height)");
    o.given.emplace_back(command.add_flag("--deterministic", c.deterministic, "deterministic algorithms (slower)"),
                         "deterministic");
    o.given.emplace_back(command.add_flag("--cudnn-benchmark,!--no-cudnn-benchmark", c.cudnnBenchmark,
                                          "CUDA: let cuDNN time its algorithms for each new shape (on in --recipe;\n"
                                          "pays for dense convolutions, not for the depthwise ones of the default model)"),
                         "cudnnBenchmark");
    o.given.emplace_back(command.add_flag("--cuda-graphs,!--no-cuda-graphs", c.cudaGraphs,
                                          "CUDA: replay each step's forward and backward passes from a CUDA graph\n"
                                          "(default; one process, one micro-batch, --amp bf16 or none)"),
                         "cudaGraphs");
}

// Where and how it computes, logs and validates.
void addDeviceOptions(CLI::App& command, TrainOptions& o)
{
    auto& c = o.config;
    bindOption(command, o, "--class-weighting", c.classWeighting, "classWeighting", "median | sqrt-median | inverse | none");
    bindOption(command, o, "--seed", c.seed, "seed", "random seed (shuffle, augmentation, initial weights)");
    bindOption(command, o, "--device", c.device, "device", "auto | cpu | cuda | cuda:N");
    bindOption(command, o, "--amp", c.amp, "amp", "mixed precision: none | bf16 (CUDA, or a CPU with AVX512-BF16/AMX) | fp16 (CUDA)");
    bindOption(command, o, "--threads", c.threads, "threads", "CPU threads (0 = all cores)");
    bindOption(command, o, "--data-on-device", c.dataOnDevice, "dataOnDevice",
               "auto | on | off: upload the training pack to the device once (auto: on a GPU\n"
               "when it takes at most a third of its memory)");
    bindOption(command, o, "--log-interval", c.logInterval, "logInterval", "iterations between progress lines");
    bindOption(command, o, "--val-interval", c.valInterval, "valInterval", "also validate every N iterations (0 = never)");
    bindOption(command, o, "--val-epochs", c.valEpochs, "valEpochs", "validate after every N-th epoch and the last");
    bindOption(command, o, "--accumulate", c.accumulate, "accumulate",
               "split each batch into this many micro-batches and sum their gradients");
}

void addParallelOptions(CLI::App& command, TrainOptions& o)
{
    auto& c = o.config;
    auto* parallel = "Data parallel (docs/ENGINE.md)";
    o.nprocOption = command.add_option("--nproc", o.nproc, "train with N CPU processes on this machine (c10d Gloo), at most one per core")
                        ->group(parallel);
    command.add_flag("--oversubscribe", o.oversubscribe, "allow --nproc beyond the cores this process may use")->group(parallel);
    o.gpusOption = command.add_option("--gpus", o.gpus, "train with the first N GPUs, one process each (c10d NCCL)")->group(parallel);
    command.add_option("--devices", o.devices, "train on these devices, one process each: cuda:0,cuda:2")->group(parallel);
    command.add_option("--nnodes", o.nnodes, "machines in the run (each runs this command)")->group(parallel);
    command.add_option("--node-rank", o.nodeRank, "this machine's index, 0 to nnodes-1")->group(parallel);
    command.add_option("--master", o.master, "host:port of node 0's rendezvous (c10d TCPStore)")->group(parallel);
    command.add_option("--job-id", o.jobId,
                       "names the run at the rendezvous; every node of one run gives the same, another run's ranks are\n"
                       "refused (default: the run folder's name with --nnodes, else a fresh id)")
        ->group(parallel);
    o.given.emplace_back(command.add_option("--timeout", c.collectiveTimeoutSeconds,
                                             "seconds before a missing or hanging rank stops the others")
                             ->capture_default_str()
                             ->group(parallel),
                         "collectiveTimeoutSeconds");
    o.given.emplace_back(command.add_flag("--scale-lr", c.scaleLearningRate, "scale the learning rate with the number of ranks")
                             ->group(parallel),
                         "scaleLearningRate");
    o.given.emplace_back(command.add_option("--sync", c.gradientSync, "gradient all-reduce: bucketed (overlapped) | plain")
                             ->capture_default_str()
                             ->group(parallel),
                         "gradientSync");
}

void addOptions(CLI::App& command, TrainOptions& o)
{
    addRunOptions(command, o);
    addBatchOptions(command, o);
    addOptimizerOptions(command, o);
    addDeviceOptions(command, o);
    addParallelOptions(command, o);
}

// Every count and rate is checked as the command line is read, before any work: a negative, zero
// or absurd value is refused with the option's name, a word or a fraction where a count belongs
// as not a (whole) number (CLI11 reads "inf" as a number: FiniteNumber).
void addChecks(CLI::App& command)
{
    const double huge = std::numeric_limits<float>::max();  // the parameters are floats
    const std::int64_t most = std::numeric_limits<int>::max();  // of an int option
    const auto check = [&command](const std::string& name, const CLI::Validator& validator) {
        command.get_option(name)->check(validator);
    };
    check("--epochs", WholeNumber(1, 1000000));
    check("--ema", FiniteNumber(0.0, 1.0));  // 1 itself is refused with the config's other checks
    check("--color-jitter", FiniteNumber(0.0, 1.0));  // 1 itself is refused with the config's other checks
    check("--class-crops", FiniteNumber(0.0, 1.0));
    check("--crop-start-scale", FiniteNumber(0.0, 1.0, /*lowOpen=*/true));
    check("--hard-pixels", FiniteNumber(0.0, 1.0, /*lowOpen=*/true));
    check("--batch", WholeNumber(1, 65536));
    check("--max-iterations", WholeNumber(0, std::numeric_limits<std::int64_t>::max()));
    check("--lr", FiniteNumber(0.0, huge, /*lowOpen=*/true));
    check("--momentum", FiniteNumber(0.0, 1.0));
    check("--weight-decay", FiniteNumber(0.0, huge));
    check("--drop-period", WholeNumber(1, 1000000));
    check("--drop-factor", FiniteNumber(0.0, 1.0, /*lowOpen=*/true));
    check("--min-lr", FiniteNumber(0.0, huge));
    check("--warmup", WholeNumber(-1, most));
    check("--translate", WholeNumber(0, 65536));
    check("--crop-share", FiniteNumber(0.0, 1.0));  // 1: a crop of the whole image, i.e. whole images
    check("--crop-height", WholeNumber(0, kMaxImageSide));  // 0 = --crop-share's
    check("--crop-width", WholeNumber(0, kMaxImageSide));
    check("--threads", WholeNumber(0, 4096));
    check("--log-interval", WholeNumber(1, most));
    check("--val-interval", WholeNumber(0, most));
    check("--val-epochs", WholeNumber(1, 1000000));
    check("--accumulate", WholeNumber(1, 65536));
    check("--timeout", WholeNumber(1, 7 * 24 * 3600));
}

// A resumed run keeps its config.json: an option that would change it (a model, a pack, a rate)
// is refused rather than ignored without a word. --epochs and --max-iterations extend the run;
// --device, --threads and --timeout say where and how this session runs.
void refuseIgnoredOptions(const TrainOptions& o)
{
    static const std::set<std::string> honoured = {"epochs", "timeBudgetSeconds", "maxIterations", "device", "threads",
                                                   "collectiveTimeoutSeconds"};
    for (const auto& [option, key] : o.given)
        if (option->count() > 0 && !honoured.count(key))
            throw CLI::ValidationError(option->get_name(), "cannot change a resumed run (it keeps its config.json); with --resume "
                                                           "only --epochs, --time-budget, --max-iterations, --device, --threads and "
                                                           "--timeout apply");
    if (!o.configFile.empty() || o.recipe)
        throw CLI::ValidationError(o.recipe ? "--recipe" : "--config", "cannot change a resumed run (it keeps its config.json)");
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start)
            items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

// The cores this process may run on (taskset, a container's cpuset), not all the machine has.
int usableCores()
{
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        return std::max(1, CPU_COUNT(&set));
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

int cudaDeviceCount()
{
    const auto devices = engine::availableDevices();
    return int(std::count_if(devices.begin(), devices.end(), [](const auto& d) { return d.name.rfind("cuda:", 0) == 0; }));
}

// Each worker is a whole LibTorch process: more of them than cores only compete for the cores
// (and, by the hundred, fill the memory), so the count is bounded unless the user insists.
std::vector<std::string> cpuWorkers(int count, bool oversubscribe)
{
    const std::string option = "--nproc " + std::to_string(count);
    if (count < 1)
        throw engine::EngineError(option + ": the number of processes must be at least 1");
    const int cores = usableCores();
    if (count > cores && !oversubscribe)
        throw engine::EngineError(option + ": more processes than the " + std::to_string(cores) +
                                  " cores this process may use; give at most " + std::to_string(cores) +
                                  ", or add --oversubscribe to insist");
    return std::vector<std::string>(std::size_t(count), "cpu");
}

std::vector<std::string> gpuWorkers(int count)
{
    const std::string option = "--gpus " + std::to_string(count);
    if (count < 1)
        throw engine::EngineError(option + ": the number of GPUs must be at least 1");
    const int available = cudaDeviceCount();
    if (count > available)
        throw engine::EngineError(option + ": this machine has " + std::to_string(available) + " CUDA device(s)");
    std::vector<std::string> devices;
    for (int gpu = 0; gpu < count; ++gpu)
        devices.push_back("cuda:" + std::to_string(gpu));
    return devices;
}

// One process group has one backend: CPUs talk Gloo, GPUs NCCL, so a mixed list would leave the
// ranks waiting for each other in two different groups.
std::vector<std::string> listedWorkers(const std::string& text)
{
    const std::string option = "--devices '" + text + "'";
    const auto devices = splitList(text);
    if (devices.empty())
        throw engine::EngineError(option + ": name at least one device (cpu or cuda:K)");
    const auto onGpu = [](const std::string& d) { return d.rfind("cuda", 0) == 0; };
    if (std::any_of(devices.begin(), devices.end(), onGpu) && !std::all_of(devices.begin(), devices.end(), onGpu))
        throw engine::EngineError(option + ": the devices must all be CPUs or all GPUs (one process group, one backend: "
                                           "Gloo or NCCL)");
    const int gpus = onGpu(devices.front()) ? cudaDeviceCount() : 0;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const std::string& device = devices[i];
        const bool cpu = device == "cpu";
        const bool gpu = device.size() > 5 && device.size() < 10 && device.rfind("cuda:", 0) == 0 &&
                         device.find_first_not_of("0123456789", 5) == std::string::npos;
        if (!cpu && !gpu)
            throw engine::EngineError(option + ": '" + device + "' is not a device (cpu or cuda:K)");
        if (gpu && std::stoi(device.substr(5)) >= gpus)
            throw engine::EngineError(option + ": " + device + " does not exist; this machine has " + std::to_string(gpus) +
                                      " CUDA device(s)");
        if (gpu && std::find(devices.begin(), devices.begin() + std::ptrdiff_t(i), device) != devices.begin() + std::ptrdiff_t(i))
            throw engine::EngineError(option + ": " + device + " is named twice (one process per GPU)");
    }
    return devices;
}

std::vector<std::string> launchDevices(const TrainOptions& o)
{
    const bool nproc = o.nprocOption->count() > 0, gpus = o.gpusOption->count() > 0, listed = !o.devices.empty();
    if (int(nproc) + int(gpus) + int(listed) > 1)
        throw engine::EngineError("--nproc, --gpus and --devices each choose the workers: give only one of them");
    if (gpus)
        return gpuWorkers(o.gpus);
    if (listed)
        return listedWorkers(o.devices);
    if (nproc || o.nnodes > 1)
        return cpuWorkers(nproc ? o.nproc : 1, o.oversubscribe);
    return {};
}

LaunchPlan launchPlan(const TrainOptions& o)
{
    LaunchPlan plan;
    if (o.nnodes < 1)
        throw engine::EngineError("--nnodes " + std::to_string(o.nnodes) + ": the number of machines must be at least 1");
    plan.devices = launchDevices(o);
    plan.nnodes = o.nnodes;
    plan.nodeRank = o.nodeRank;
    plan.timeoutSeconds = o.config.collectiveTimeoutSeconds;
    if (plan.nnodes < 1 || plan.nodeRank < 0 || plan.nodeRank >= plan.nnodes)
        throw engine::EngineError("--node-rank " + std::to_string(plan.nodeRank) + " must be in 0.." +
                                  std::to_string(plan.nnodes - 1));
    if (!o.master.empty()) {
        const auto colon = o.master.rfind(':');
        if (colon == std::string::npos || colon == 0)
            throw engine::EngineError("--master '" + o.master + "' must be host:port");
        plan.masterAddr = o.master.substr(0, colon);
        try {
            plan.masterPort = std::stoi(o.master.substr(colon + 1));
        } catch (const std::exception&) {
            throw engine::EngineError("--master '" + o.master + "': the port is not a number");
        }
    } else if (plan.nnodes > 1) {
        throw engine::EngineError("--nnodes " + std::to_string(plan.nnodes) + " needs --master host:port (node 0's address)");
    }
    return plan;
}

// This process as one rank: its device from the launch, then the process group.
std::shared_ptr<engine::Communicator> joinWorld(const engine::WorldInfo& world, engine::TrainConfig& config)
{
    if (!world.distributed())
        return nullptr;
    const char* device = std::getenv("SEGSTUDIO_DEVICE");
    config.device = device ? std::string(device) : engine::deviceForRank(config.device, world.localRank);
    // Waiting for the other ranks (a second machine that is not up yet) holds nothing to save:
    // a Stop ends the wait at once instead of after the rendezvous timeout.
    struct ExitOnStopWhileJoining {
        ExitOnStopWhileJoining() { engine::exitOnStop(true); }
        ~ExitOnStopWhileJoining() { engine::exitOnStop(false); }
    } joining;
    return engine::connectProcessGroup(world, engine::backendForDevice(config.device),
                                       std::chrono::seconds(config.collectiveTimeoutSeconds));
}

bool wasGiven(const TrainOptions& o, const std::string& key)
{
    for (const auto& [option, optionKey] : o.given)
        if (optionKey == key && option->count() > 0)
            return true;
    return false;
}

// Epochs or a time budget, never both: the one given on the command line wins over --config's.
void checkEpochsOrBudget(const TrainOptions& o)
{
    if (wasGiven(o, "epochs") && wasGiven(o, "timeBudgetSeconds"))
        throw CLI::ValidationError("--time-budget", "give --epochs or --time-budget, not both");
}

engine::TrainConfig resolveConfig(const TrainOptions& o)
{
    checkEpochsOrBudget(o);
    nlohmann::json base = engine::toJson(o.recipe ? engine::TrainConfig::segnetRecipe() : engine::TrainConfig{});
    if (!o.configFile.empty())
        base = engine::toJson(engine::loadTrainConfig(o.configFile));
    const nlohmann::json cli = engine::toJson(o.config);
    for (const auto& [option, key] : o.given)
        if (option->count() > 0)
            base[key] = cli[key];
    if (wasGiven(o, "epochs"))
        base["timeBudgetSeconds"] = 0.0;  // an explicit --epochs run trains for its epochs, as it always did
    engine::TrainConfig config = engine::trainConfigFromJson(base);
    // A run folder stands for its checkpoint here as in evaluate, predict and export-model; the
    // run's config.json records the file it started from.
    if (!config.initFrom.empty())
        config.initFrom = run::RunLayout::resolveCheckpoint(config.initFrom).string();
    return config;
}

// The job every rank checks at the rendezvous. Nodes of one run cannot agree on a fresh id, so
// with several they take the run folder's name (the same on every machine, whatever its mount
// point); on one machine the launcher makes a fresh one.
std::string jobIdFor(const TrainOptions& o, const std::string& runDir)
{
    if (!o.jobId.empty() || o.nnodes == 1)
        return o.jobId;
    auto folder = std::filesystem::path(runDir).lexically_normal();
    if (folder.filename().empty())
        folder = folder.parent_path();
    return folder.filename().string();
}

}  // namespace

int runTraining(engine::Trainer& trainer, bool printSummary)
{
    trainer.setProgress([](const std::string& line) { std::cout << line << std::endl; });
    const auto outcome = trainer.run();
    if (printSummary && outcome.validated && trainer.rank() == 0) {
        std::cout << "last validation (" << trainer.config().valPack << "):\n"
                  << metricsReport(outcome.lastValidation, trainer.classNames()) << "best val mIoU " << outcome.bestMeanIoU
                  << "  checkpoints: " << trainer.lastCheckpointPath() << ", " << trainer.bestCheckpointPath() << std::endl;
    }
    switch (outcome.status) {
    case engine::TrainOutcome::Status::Finished:
        return kExitOk;
    case engine::TrainOutcome::Status::Stopped:
        return kExitStopped;
    case engine::TrainOutcome::Status::Diverged:
        return kExitDiverged;
    }
    return kExitError;
}

void addTrainCommand(CLI::App& app, int& exitCode, std::vector<std::string> programArguments)
{
    auto options = std::make_shared<TrainOptions>();
    auto* command = app.add_subcommand("train", "train a model on packs into a run directory");
    command->footer(
        "Examples:\n"
        "  segstudio-train train --train-pack train.pack --val-pack val.pack -o runs/first\n"
        "  segstudio-train train --recipe --train-pack camvid-train.pack --val-pack camvid-val.pack -o runs/segnet\n"
        "  segstudio-train train --time-budget 30m --train-pack train.pack --val-pack val.pack -o runs/half-hour\n"
        "  segstudio-train train --resume runs/first --epochs 200   (also --max-iterations N, 0 = none)\n"
        "  segstudio-train train --resume runs/half-hour --time-budget 1h   (the whole run's training time, resumes included)\n"
        "Ctrl+C (SIGINT/SIGTERM) writes checkpoints/last.pt and exits; --resume continues exactly there.\n"
        "SIGUSR1 stops after the current epoch (and its validation), likewise resumable.\n"
        "  segstudio-train train --nproc 2 --train-pack train.pack -o runs/two   (2 CPU processes)\n"
        "  segstudio-train train --gpus 8 --recipe --train-pack train.pack --val-pack val.pack -o runs/eight\n"
        "  torchrun --nproc-per-node 4 segstudio-train train ... (also srun, mpirun)\n"
        "  two machines: ... --nnodes 2 --node-rank 0|1 --master node0:29500\n"
        "Exit codes: 0 finished, 1 error, 3 loss became NaN/Inf, 4 a data-parallel rank timed out waiting for another,\n"
        "5 another trainer is using the run folder, 130 stopped by a signal.");
    addOptions(*command, *options);
    addChecks(*command);
    command->callback([options, &exitCode, programArguments] {
        if (!options->resumeDir.empty())
            refuseIgnoredOptions(*options);  // before any worker is launched
        LaunchPlan plan = launchPlan(*options);
        if (plan.wanted() && !std::getenv("SEGSTUDIO_LAUNCHER")) {
            const std::string backend = engine::backendForDevice(plan.devices.front());
            if (!engine::processGroupAvailable(backend))
                throw engine::EngineError("data-parallel training needs c10d " + backend +
                                          ", which the LibTorch of this build lacks (docs/ENGINE.md)");
            plan.runDir = options->resumeDir.empty() ? resolveConfig(*options).runDir : options->resumeDir;
            plan.jobId = jobIdFor(*options, plan.runDir);
            exitCode = launchWorkers(plan, programArguments);
            return;
        }
        // Before the trainer exists: it writes its run record while it starts, and a Ctrl+C from
        // then on (a GUI's Stop) must stop it with a checkpoint, not kill it.
        engine::installStopSignalHandlers();
        const engine::WorldInfo world = engine::worldFromEnvironment();
        std::unique_ptr<engine::Trainer> trainer;
        if (!options->resumeDir.empty()) {
            checkEpochsOrBudget(*options);
            const int epochs = wasGiven(*options, "epochs") ? options->config.epochs : 0;
            const double budget = wasGiven(*options, "timeBudgetSeconds") ? options->config.timeBudgetSeconds
                                  : wasGiven(*options, "epochs")          ? 0.0
                                                                          : -1.0;
            const std::int64_t maxIterations = wasGiven(*options, "maxIterations") ? options->config.maxIterations : -1;
            engine::TrainConfig launch = options->config;
            auto communicator = joinWorld(world, launch);
            trainer = engine::Trainer::resume(options->resumeDir, epochs, communicator,
                                              world.distributed() || wasGiven(*options, "device") ? launch.device : std::string(),
                                              maxIterations, wasGiven(*options, "threads") ? options->config.threads : -1,
                                              budget);
        } else {
            engine::TrainConfig config = resolveConfig(*options);
            auto communicator = joinWorld(world, config);
            trainer = std::make_unique<engine::Trainer>(std::move(config), communicator);
        }
        exitCode = runTraining(*trainer);
    });
}

}  // namespace segstudio::cli
