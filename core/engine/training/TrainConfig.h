#pragma once

#include "run/TrainingCrop.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

namespace segstudio::engine {
inline namespace training {

// Everything needed to reproduce a training run; written to RUN_DIR/config.json and into every
// checkpoint. Plain data without LibTorch, so the UI can build and show one.
// Guarantees: fromJson(toJson(c)) == c; missing keys take the defaults below (older configs load).
struct TrainConfig {
    // Data and output.
    std::string trainPack;
    std::string valPack;  // empty = no validation
    std::string runDir;

    // Model.
    // See ModelRegistry; segnetRecipe() for SegNet's own. The default is the best of the registry
    // at 30 minutes on CamVid (docs/BENCHMARKS.md), trained in bf16 where the CPU has it (amp).
    std::string model = "deeplabv3plus-resnet18-256-s16";
    int classes = 0;                    // 0 = the pack's class count
    // Optional pretrained encoder weights, a TorchScript archive (EncoderWeights, docs/ENGINE.md).
    // Configs written before this name used "vggWeights", which is still read.
    std::string encoderWeights;
    // Optional checkpoint whose weights start a new run (fine-tuning, "predict as I label"): its
    // model and class count must be this run's. Only the weights are taken: the optimiser, the
    // schedule and the position start afresh. A resume ignores it (the run's own checkpoint wins).
    std::string initFrom;

    // Loop. The defaults learn well from scratch with any model of the registry (docs/ENGINE.md,
    // "Defaults"): AdamW, cosine decay after a short warm-up, batch 8. SegNet's published recipe
    // (SGD, momentum 0.9, lr 1e-3, L2 5e-4, batch 4) is segnetRecipe(), --recipe on the CLI.
    int epochs = 100;
    int batchSize = 8;
    std::int64_t maxIterations = 0;  // 0 = no limit; for quick experiments and benchmarks
    // Train for this long instead of for the epochs (0 = for the epochs): the trainer measures its
    // pace, plans the epochs so that training and validation end at the budget, lays the schedule
    // over the plan and re-plans when the pace changes (TimeBudgetPlanner). Training time, so a
    // resumed run gets what its earlier sessions left; epochs then only bounds the plan.
    double timeBudgetSeconds = 0.0;
    std::string optimizer = "adamw";  // sgd | adam | adamw
    double learningRate = 5e-3;
    double momentum = 0.9;            // sgd only
    // L2 for sgd/adam; AdamW's decoupled decay (x lr per step). -1 = the optimiser's default
    // (effectiveWeightDecay): 0.1 for adamw, which led 1e-2 on CamVid val in 30 CPU-minutes
    // (docs/BENCHMARKS.md, "Weight decay"), and 1e-2 for sgd and adam, where it is an L2 term.
    double weightDecay = -1;
    double beta1 = 0.9;
    double beta2 = 0.999;
    std::string schedule = "cosine";  // none | step | cosine
    int dropPeriod = 10;            // step: epochs between drops
    double dropFactor = 0.1;        // step: lr multiplier at each drop
    double minLearningRate = 0.0;   // cosine: floor
    // Linear warm-up from 0 over this many iterations, before any schedule; -1 = a tenth of the
    // run, at most 100 (a short run on a small project still gets most of its steps at full lr).
    int warmupIterations = -1;

    // Augmentation, on the training device; image and label always move together.
    bool flip = true;
    int translate = 10;  // max |dx|, |dy| in pixels; label padding is unlabelled
    bool scaleCrop = false;
    double scaleMin = 0.75;
    double scaleMax = 1.25;
    // Random crop of this size from each (augmented) sample, 0 = the share below. Training on
    // crops costs less per sample at the same object scale; validation always sees whole images.
    int cropHeight = 0;
    int cropWidth = 0;
    // Without a size: crops of this share of each side of the pack's images (run::TrainingCrop:
    // at least 144 x 192, whole images where that is most of an image), resolved to cropHeight
    // x cropWidth when the run starts; 0 = whole images. 0.4 trained best in 30 CPU-minutes on
    // CamVid (docs/BENCHMARKS.md, "Crops by default"); the SegNet recipe trains on whole images.
    double cropShare = run::TrainingCrop::kDefaultShare;
    // Progressive crops (CropSchedule): the first quarter of the run trains on crops of this share
    // of the crop's sides, growing in four stages to the full crop for the last quarter; 1 = off.
    double cropStartScale = 1.0;
    // Brightness, contrast and saturation each scaled by a random factor in [1 - j, 1 + j]; 0 = off.
    double colorJitter = 0.0;
    // Class-uniform crops (Augmenter): this share of the crops holds a pixel of a class drawn
    // uniformly from the sample's classes; 0 = off, needs a crop.
    double classCrops = 0.0;
    // Square root of median-frequency weights by default: on CamVid 0.372 against 0.333 for the
    // full weights (8 epochs) and 0.610 in 30 minutes (docs/BENCHMARKS.md); the recipe keeps "median".
    std::string classWeighting = "sqrt-median";  // median | sqrt-median | inverse | none
    // Exponential moving average of the weights (WeightAverage) for validation and best.pt;
    // 0 = off, else the decay per step (0.999: an average over about the last 1000 steps).
    double weightAverageDecay = 0.0;
    // The share of a batch's pixels whose losses count (SegmentationLoss): 1 = all (weighted
    // cross-entropy), 0.25 = the hardest quarter (top-k / OHEM).
    double hardPixelFraction = 1.0;

    // Runtime.
    std::uint64_t seed = 1;
    std::string device = "auto";  // auto | cpu | cuda | cuda:N
    std::string amp = "auto";     // none | bf16 | fp16 (CUDA only) | auto (resolveAmp: bf16 on a CPU that has it)
    bool channelsLast = true;     // CUDA, and a CPU in bf16
    // cuDNN's algorithm search (CUDA only), off by default: on an H100 it held the default model
    // (depthwise convolutions) 26-30 s before its first steps, and the algorithms it chose were
    // slower than the heuristics' (fp32 ~215 against ~290 images/s; docs/SCALING.md). The SegNet
    // recipe, all dense convolutions, keeps it on, as measured there.
    bool cudnnBenchmark = false;
    // The forward and backward passes replayed from a CUDA graph (CudaGraphStep) where the step
    // allows it: a CUDA device, one micro-batch, one process, no fp16 loss scaling.
    bool cudaGraphs = true;
    bool deterministic = false;
    int threads = 0;   // CPU threads, 0 = all cores
    int prefetch = 2;  // batches prepared ahead by the loader thread
    // Steps the host may read a step's NaN/stop flags late (StepVerdicts): -1 = automatic (1 on a
    // GPU, 0 on a CPU); tests set 1 on a CPU to run the GPU's order of events.
    int verdictLag = -1;
    // The training pack uploaded once to the training device (DeviceResidentPack), so a step
    // gathers its batch there instead of copying it from the host: auto = on a CUDA device when
    // the pack takes at most a third of its memory; on (also on a CPU: one copy in memory, for
    // tests); off = batches from the host loader.
    std::string dataOnDevice = "auto";
    int logInterval = 10;  // iterations between metrics.jsonl lines
    int valInterval = 0;   // iterations between extra validations, 0 = none
    int valEpochs = 1;     // validate after every N-th epoch (and always after the last)
    bool checkpointEachEpoch = true;
    // Least seconds between two epoch-end checkpoints (last.pt); -1 = automatic: every epoch on
    // the CPU, at most one a minute on a GPU. There an epoch takes seconds and writing a checkpoint
    // can take longer (SegNet's 236 MB one cost 7x its 48-image epoch on an H200: docs/SCALING.md).
    // A stop, the end of the run and each new best are written at once whatever this says.
    double checkpointIntervalSeconds = -1;

    // Data parallel. The rank and world size come from the launch (WorldInfo), never from here.
    bool scaleLearningRate = false;     // lr x world size (linear scaling with the global batch)
    std::string gradientSync = "bucketed";  // bucketed (overlapped, DDP's design) | plain
    int collectiveTimeoutSeconds = 300;     // a rank that hangs this long stops the others

    // Gradient accumulation: each step's batch is split into this many micro-batches (sample i
    // into micro-batch i mod accumulate), whose gradients are summed before the step.
    int accumulate = 1;

    // Test hook: poison the loss at this iteration (-1 = never).
    std::int64_t debugNanAtIteration = -1;

    bool operator==(const TrainConfig& other) const;

    // SegNet's published CamVid recipe exactly: segnet, SGD momentum 0.9, lr 1e-3, L2 5e-4, batch
    // 4, 100 epochs, x-reflection and +-10 px translation, median-frequency weights, no schedule.
    static TrainConfig segnetRecipe();

    // weightDecay, or the optimiser's default when it is -1.
    double effectiveWeightDecay() const;

    // Throws EngineError naming the first bad field.
    void validate() const;
};

nlohmann::json toJson(const TrainConfig& config);
// Throws EngineError naming file (may be empty) and the problem.
TrainConfig trainConfigFromJson(const nlohmann::json& json, const std::string& file = {});
// A configuration the user writes (--config): a key it leaves out takes today's default.
TrainConfig loadTrainConfig(const std::string& file);
// A run's own record (config.json, a checkpoint's "config"), read to resume it: a key added since
// it was written takes the value that trains as that run did (cropShare 0).
TrainConfig recordedRunConfigFromJson(nlohmann::json json, const std::string& file = {});
TrainConfig loadRecordedRunConfig(const std::string& file);
void saveTrainConfig(const TrainConfig& config, const std::string& file);

}  // namespace training
}  // namespace segstudio::engine
