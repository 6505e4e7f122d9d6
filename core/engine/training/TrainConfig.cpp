#include "TrainConfig.h"

#include "run/AtomicFile.h"
#include "engine/runtime/EngineError.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <utility>
#include <sstream>

namespace segstudio::engine {
inline namespace training {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(
    TrainConfig, trainPack, valPack, runDir, model, classes, encoderWeights, initFrom, epochs, batchSize, maxIterations,
    timeBudgetSeconds, optimizer, learningRate, momentum, weightDecay, beta1, beta2, schedule, dropPeriod, dropFactor,
    minLearningRate, warmupIterations, flip, translate, scaleCrop, scaleMin, scaleMax, cropHeight, cropWidth, cropShare,
    cropStartScale, colorJitter, classCrops, classWeighting, weightAverageDecay, hardPixelFraction, seed, device, amp,
    channelsLast, cudnnBenchmark, cudaGraphs, deterministic, threads, prefetch, dataOnDevice, verdictLag, logInterval, valInterval,
    valEpochs, checkpointEachEpoch, checkpointIntervalSeconds, scaleLearningRate, gradientSync,
    collectiveTimeoutSeconds, accumulate, debugNanAtIteration)

namespace {

void require(bool ok, const std::string& problem)
{
    if (!ok)
        throw EngineError("training configuration: " + problem);
}

bool oneOf(const std::string& value, std::initializer_list<const char*> allowed)
{
    for (const char* candidate : allowed)
        if (value == candidate)
            return true;
    return false;
}

}  // namespace

TrainConfig TrainConfig::segnetRecipe()
{
    TrainConfig recipe;
    recipe.model = "segnet";
    recipe.epochs = 100;
    recipe.batchSize = 4;
    recipe.optimizer = "sgd";
    recipe.learningRate = 1e-3;
    recipe.momentum = 0.9;
    recipe.weightDecay = 5e-4;
    recipe.schedule = "none";
    recipe.warmupIterations = 0;
    recipe.flip = true;
    recipe.translate = 10;
    recipe.scaleCrop = false;
    recipe.cropHeight = recipe.cropWidth = 0;
    recipe.cropShare = 0.0;  // whole images
    recipe.classWeighting = "median";
    recipe.cudnnBenchmark = true;
    return recipe;
}

double TrainConfig::effectiveWeightDecay() const
{
    if (weightDecay >= 0)
        return weightDecay;
    return optimizer == "adamw" ? 0.1 : 1e-2;
}

bool TrainConfig::operator==(const TrainConfig& other) const
{
    return toJson(*this) == toJson(other);
}

void TrainConfig::validate() const
{
    // inf passes "positive", NaN fails nothing, and either is written to JSON as null, which no
    // resume can read back; a value beyond float's range (1e300) fails deep in LibTorch with a raw
    // "cannot be converted to type float": every real-valued field must be a finite float.
    const std::pair<const char*, double> reals[] = {{"learningRate", learningRate},
                                                    {"momentum", momentum},
                                                    {"weightDecay", weightDecay},
                                                    {"beta1", beta1},
                                                    {"beta2", beta2},
                                                    {"dropFactor", dropFactor},
                                                    {"minLearningRate", minLearningRate},
                                                    {"scaleMin", scaleMin},
                                                    {"scaleMax", scaleMax},
                                                    {"timeBudgetSeconds", timeBudgetSeconds},
                                                    {"cropShare", cropShare}};
    for (const auto& [name, value] : reals)
        require(std::isfinite(value) && std::abs(value) <= std::numeric_limits<float>::max(),
                std::string(name) + " must be a finite number within float's range");
    require(!trainPack.empty(), "trainPack is empty");
    require(classes >= 0 && classes <= 255, "classes must be 0..255");
    require(epochs > 0, "epochs must be positive");
    require(batchSize > 0, "batchSize must be positive");
    require(maxIterations >= 0, "maxIterations must be >= 0");
    require(timeBudgetSeconds >= 0, "timeBudgetSeconds must be >= 0 (0 = train for the epochs)");
    // The planner counts steps and epochs in int: a budget of centuries overflows them (1e12 s
    // "finished" after 4 iterations). A year is far past any real run.
    require(timeBudgetSeconds <= 366.0 * 24 * 3600, "timeBudgetSeconds must be at most a year (8784 h)");
    require(oneOf(optimizer, {"sgd", "adam", "adamw"}), "optimizer must be sgd, adam or adamw, not '" + optimizer + "'");
    require(learningRate > 0, "learningRate must be positive");
    require(momentum >= 0 && momentum < 1, "momentum must be in [0, 1)");
    require(weightDecay >= 0 || weightDecay == -1, "weightDecay must be >= 0, or -1 for the optimiser's default");
    require(oneOf(schedule, {"none", "step", "cosine"}), "schedule must be none, step or cosine, not '" + schedule + "'");
    require(dropPeriod > 0, "dropPeriod must be positive");
    require(dropFactor > 0 && dropFactor <= 1, "dropFactor must be in (0, 1]");
    require(minLearningRate >= 0, "minLearningRate must be >= 0");
    require(warmupIterations >= -1, "warmupIterations must be >= 0, or -1 for automatic");
    require(translate >= 0, "translate must be >= 0");
    require(scaleMin > 0 && scaleMin <= scaleMax, "scaleMin must be positive and <= scaleMax");
    require(cropHeight >= 0 && cropWidth >= 0 && (cropHeight > 0) == (cropWidth > 0),
            "cropHeight and cropWidth must both be 0 (whole images) or both positive");
    require(cropStartScale > 0 && cropStartScale <= 1, "cropStartScale must be in (0, 1]: 1 = off");
    require(cropShare >= 0 && cropShare <= 1, "cropShare must be in [0, 1]: 0 (or 1, a crop of the whole image) = whole images");
    const bool crops = cropHeight > 0 || (cropShare > 0 && cropShare < 1);  // (1: crops of the whole image)
    require(cropStartScale == 1 || crops, "cropStartScale needs a crop (cropHeight, cropWidth or cropShare)");
    require(colorJitter >= 0 && colorJitter < 1, "colorJitter must be in [0, 1): 0 = off");
    require(classCrops >= 0 && classCrops <= 1, "classCrops must be in [0, 1]: 0 = off");
    require(classCrops == 0 || crops, "classCrops needs a crop (cropHeight, cropWidth or cropShare)");
    require(oneOf(classWeighting, {"median", "sqrt-median", "inverse", "none"}),
            "classWeighting must be median, sqrt-median, inverse or none, not '" + classWeighting + "'");
    require(oneOf(amp, {"none", "bf16", "fp16", "auto"}), "amp must be none, bf16, fp16 or auto, not '" + amp + "'");
    require(threads >= 0, "threads must be >= 0");
    require(prefetch >= 1, "prefetch must be >= 1");
    require(verdictLag >= -1 && verdictLag <= 8, "verdictLag must be -1 (automatic) or 0-8");
    require(oneOf(dataOnDevice, {"auto", "on", "off"}), "dataOnDevice must be auto, on or off, not '" + dataOnDevice + "'");
    require(logInterval > 0, "logInterval must be positive");
    require(valInterval >= 0, "valInterval must be >= 0");
    require(valEpochs >= 1, "valEpochs must be >= 1");
    require(weightAverageDecay >= 0 && weightAverageDecay < 1, "weightAverageDecay must be in [0, 1): 0 = off");
    require(hardPixelFraction > 0 && hardPixelFraction <= 1, "hardPixelFraction must be in (0, 1]: 1 = every pixel");
    require(checkpointIntervalSeconds == -1 || (std::isfinite(checkpointIntervalSeconds) && checkpointIntervalSeconds >= 0),
            "checkpointIntervalSeconds must be >= 0, or -1 for automatic");
    require(oneOf(gradientSync, {"bucketed", "plain"}), "gradientSync must be bucketed or plain, not '" + gradientSync + "'");
    require(collectiveTimeoutSeconds > 0, "collectiveTimeoutSeconds must be positive");
    require(accumulate >= 1 && batchSize % accumulate == 0, "accumulate must divide batchSize");
}

nlohmann::json toJson(const TrainConfig& config)
{
    nlohmann::json json = config;
    return json;
}

TrainConfig trainConfigFromJson(const nlohmann::json& json, const std::string& file)
{
    const std::string where = file.empty() ? std::string("training configuration") : file;
    if (!json.is_object())
        throw EngineError(where + ": expected a JSON object");
    try {
        if (json.contains("vggWeights") && !json.contains("encoderWeights")) {  // configs before the rename
            nlohmann::json renamed = json;
            renamed["encoderWeights"] = renamed["vggWeights"];
            renamed.erase("vggWeights");
            return renamed.get<TrainConfig>();
        }
        return json.get<TrainConfig>();
    } catch (const nlohmann::json::exception& error) {
        throw EngineError(where + ": " + error.what());
    }
}

TrainConfig recordedRunConfigFromJson(nlohmann::json json, const std::string& file)
{
    // Runs recorded before cropShare existed cropped only by cropHeight x cropWidth.
    if (json.is_object() && !json.contains("cropShare"))
        json["cropShare"] = 0.0;
    return trainConfigFromJson(json, file);
}

namespace {

nlohmann::json readConfigFile(const std::string& file)
{
    std::ifstream in(file);
    if (!in)
        throw EngineError(file + ": cannot open the training configuration");
    nlohmann::json json;
    try {
        in >> json;
    } catch (const nlohmann::json::exception& error) {
        throw EngineError(file + ": not valid JSON (" + error.what() + ")");
    }
    return json;
}

}  // namespace

TrainConfig loadTrainConfig(const std::string& file) { return trainConfigFromJson(readConfigFile(file), file); }

TrainConfig loadRecordedRunConfig(const std::string& file)
{
    return recordedRunConfigFromJson(readConfigFile(file), file);
}

void saveTrainConfig(const TrainConfig& config, const std::string& file)
{
    run::writeFileAtomically(file, toJson(config).dump(2) + "\n");
}

}  // namespace training
}  // namespace segstudio::engine
