#include "TrainingModel.h"

#include "OptimizerFactory.h"

#include "engine/models/Checkpoint.h"
#include "engine/models/EncoderWeights.h"
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/EngineError.h"

namespace segstudio::engine {
inline namespace training {

std::shared_ptr<SegmentationModelImpl> TrainingModel::build(const TrainConfig& config, torch::Device device, bool resuming)
{
    torch::manual_seed(config.seed);  // the same seed gives the same initial weights
    auto model = ModelRegistry::instance().create(config.model, config.classes);
    if (!config.encoderWeights.empty())
        loadEncoderWeights(*model, config.model, config.encoderWeights);
    model->to(device);
    if (!resuming && !config.initFrom.empty())
        initialiseFrom(*model, config, device);
    return model;
}

// Checked before loading, so a wrong file is named with what differs rather than with the first
// tensor whose shape LibTorch finds wrong.
void TrainingModel::initialiseFrom(SegmentationModelImpl& model, const TrainConfig& config, torch::Device device)
{
    const std::string& checkpoint = config.initFrom;
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
    Checkpoint::loadWeights(checkpoint, model, device);
}

std::unique_ptr<CheckpointSnapshot> TrainingModel::snapshotFor(const TrainConfig& config, torch::Device device)
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

}  // namespace training
}  // namespace segstudio::engine
