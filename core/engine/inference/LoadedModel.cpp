#include "LoadedModel.h"

#include "engine/runtime/Runtime.h"

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

void LoadedModel::setPrecision(const std::string& precision, torch::Device device)
{
    amp = inferencePrecision(precision, device, cpuComputesBf16());
    channelsLast = amp == "bf16";
    if (!channelsLast)
        return;
    torch::NoGradGuard noGrad;
    for (auto& parameter : model->parameters())
        if (parameter.dim() == 4)
            parameter.set_data(parameter.data().contiguous(at::MemoryFormat::ChannelsLast));
}

torch::Tensor LoadedModel::decisionLogits(const torch::Tensor& input) const
{
    torch::Tensor logits;
    {
        const AutocastScope autocast(amp, input.device());
        logits = model->forward(channelsLast ? input.contiguous(at::MemoryFormat::ChannelsLast) : input);
    }
    return correction.apply(logits.to(torch::kFloat));
}

}  // namespace inference
}  // namespace segstudio::engine
