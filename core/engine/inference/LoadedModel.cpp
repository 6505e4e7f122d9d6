#include "LoadedModel.h"

#include "engine/models/Checkpoint.h"
#include "engine/runtime/EngineError.h"
#include "engine/models/ModelRegistry.h"

namespace segstudio::engine {
inline namespace inference {

LoadedModel LoadedModel::fromCheckpoint(const std::string& checkpoint, torch::Device device)
{
    const auto state = Checkpoint::readState(checkpoint);
    LoadedModel loaded;
    try {
        loaded.name = state.at("model").get<std::string>();
        loaded.classNames = state.at("classNames").get<std::vector<std::string>>();
        loaded.classWeights = state.value("classWeights", std::vector<double>{});
        loaded.trainedHeight = state.value("height", 0);
        loaded.trainedWidth = state.value("width", 0);
    } catch (const nlohmann::json::exception& error) {
        throw EngineError(checkpoint + ": checkpoint state lacks the model description (" + error.what() + ")");
    }
    try {
        loaded.correction = ClassPriorCorrection(loaded.classWeights);
    } catch (const EngineError& error) {
        throw EngineError(checkpoint + ": " + error.what());
    }
    loaded.model = ModelRegistry::instance().create(loaded.name, int(loaded.classNames.size()));
    loaded.model->to(device);
    Checkpoint::load(checkpoint, *loaded.model, nullptr, device);
    loaded.model->eval();
    return loaded;
}

}  // namespace inference
}  // namespace segstudio::engine
