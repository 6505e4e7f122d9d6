#include "Evaluator.h"

#include "engine/runtime/EngineError.h"
#include "LoadedModel.h"
#include "engine/runtime/Runtime.h"
#include "Validation.h"
#include "pack/PackError.h"

namespace segstudio::engine {
inline namespace inference {

namespace {

std::unique_ptr<pack::PackReader> openPack(const std::string& packPath)
{
    try {
        return std::make_unique<pack::PackReader>(packPath);
    } catch (const pack::PackError& error) {
        throw EngineError(error.what());
    }
}

void checkClasses(const pack::PackReader& pack, const LoadedModel& loaded, const std::string& checkpoint)
{
    if (pack.spec().classes.size() != loaded.classNames.size())
        throw EngineError(pack.path() + ": pack has " + std::to_string(pack.spec().classes.size()) + " classes, checkpoint " +
                          checkpoint + " was trained on " + std::to_string(loaded.classNames.size()));
}

std::string recordName(std::size_t index)
{
    std::string digits = std::to_string(index + 1);
    return "#" + std::string(digits.size() < 4 ? 4 - digits.size() : 0, '0') + digits;
}

}  // namespace

metrics::EvaluationReport evaluationReport(const std::string& checkpoint, const std::string& packPath,
                                           const EvaluateOptions& options)
{
    const auto device = chooseDevice(options.device);
    configureRuntime(options.threads, /*deterministic=*/false, /*cudnnBenchmark=*/false);  // as Predictor
    const auto pack = openPack(packPath);
    auto loaded = LoadedModel::fromCheckpoint(checkpoint, device);
    checkClasses(*pack, loaded, checkpoint);
    loaded.setPrecision(options.precision, device);
    loaded.model->eval();
    torch::NoGradGuard noGrad;
    metrics::EvaluationReport report(loaded.classNames);
    const auto height = std::int64_t(pack->spec().height), width = std::int64_t(pack->spec().width);
    const auto batchSize = std::size_t(std::max(1, options.batchSize));
    for (std::size_t first = 0; first < pack->size(); first += batchSize) {
        const std::size_t count = std::min(batchSize, pack->size() - first);
        const auto images = torch::from_blob(const_cast<std::uint8_t*>(pack->image(first)),
                                             {std::int64_t(count), height, width, 3}, torch::kUInt8);
        const auto input = normaliseImages(imagesToDevice(images, device), /*channelsLast=*/false);
        const auto predicted = loaded.decisionLogits(input).argmax(1).to(torch::kUInt8).to(torch::kCPU).contiguous();
        for (std::size_t i = 0; i < count; ++i)
            report.addImage(recordName(first + i), pack->label(first + i), predicted[std::int64_t(i)].data_ptr<std::uint8_t>(),
                            int(width), int(height));
    }
    report.context() = {{"checkpoint", checkpoint}, {"pack", packPath}, {"model", loaded.name}};
    return report;
}

Evaluation evaluateCheckpoint(const std::string& checkpoint, const std::string& packPath, const EvaluateOptions& options)
{
    const auto device = chooseDevice(options.device);
    configureRuntime(options.threads, /*deterministic=*/false, /*cudnnBenchmark=*/false);  // as Predictor
    const auto pack = openPack(packPath);
    auto loaded = LoadedModel::fromCheckpoint(checkpoint, device);
    checkClasses(*pack, loaded, checkpoint);
    ValidationSettings settings;
    settings.device = device;
    settings.batchSize = options.batchSize;
    settings.pinMemory = device.is_cuda();
    settings.correction = loaded.correction;
    loaded.setPrecision(options.precision, device);
    settings.amp = loaded.amp;
    settings.channelsLast = loaded.channelsLast;
    const SegmentationLoss loss(loaded.classWeights, device);
    return {validate(*loaded.model, *pack, loss, settings), loaded.classNames, loaded.name};
}

}  // namespace inference
}  // namespace segstudio::engine
