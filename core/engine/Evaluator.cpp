#include "Evaluator.h"

#include "EngineError.h"
#include "LoadedModel.h"
#include "Runtime.h"
#include "Validation.h"
#include "pack/PackError.h"

namespace segstudio::engine {

Evaluation evaluateCheckpoint(const std::string& checkpoint, const std::string& packPath, const EvaluateOptions& options)
{
    const auto device = chooseDevice(options.device);
    configureRuntime(options.threads, /*deterministic=*/false, /*cudnnBenchmark=*/true);
    std::unique_ptr<pack::PackReader> pack;
    try {
        pack = std::make_unique<pack::PackReader>(packPath);
    } catch (const pack::PackError& error) {
        throw EngineError(error.what());
    }
    auto loaded = LoadedModel::fromCheckpoint(checkpoint, device);
    if (pack->spec().classes.size() != loaded.classNames.size())
        throw EngineError(packPath + ": pack has " + std::to_string(pack->spec().classes.size()) + " classes, checkpoint " +
                          checkpoint + " was trained on " + std::to_string(loaded.classNames.size()));
    ValidationSettings settings;
    settings.device = device;
    settings.batchSize = options.batchSize;
    settings.pinMemory = device.is_cuda();
    const SegmentationLoss loss(loaded.classWeights, device);
    return {validate(*loaded.model, *pack, loss, settings), loaded.classNames, loaded.name};
}

}  // namespace segstudio::engine
