#include "VggWeights.h"

#include "engine/runtime/EngineError.h"
#include "SegNet.h"
#include "engine/runtime/TensorShapeText.h"

#include <torch/script.h>

namespace segstudio::engine {
inline namespace models {

void loadVgg16Encoder(SegNetImpl& model, const std::string& path)
{
    torch::jit::Module archive;
    try {
        archive = torch::jit::load(path, torch::kCPU);
    } catch (const c10::Error& error) {
        throw EngineError(path + ": not a TorchScript archive of VGG-16 weights (" + error.what_without_backtrace() + ")");
    }
    std::vector<std::pair<torch::Tensor, torch::Tensor>> convs;  // weight, bias
    std::vector<torch::Tensor> parameters;
    for (const auto& parameter : archive.named_parameters(/*recurse=*/true))
        parameters.push_back(parameter.value);
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        if (parameters[i].dim() != 4)
            continue;
        const bool hasBias = i + 1 < parameters.size() && parameters[i + 1].dim() == 1;
        convs.emplace_back(parameters[i], hasBias ? parameters[i + 1] : torch::Tensor());
    }
    auto targets = model.encoderConvs();
    if (convs.size() != targets.size())
        throw EngineError(path + ": holds " + std::to_string(convs.size()) + " convolutions, the encoder has " +
                          std::to_string(targets.size()));
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        auto& target = targets[i];
        if (convs[i].first.sizes() != target->weight.sizes())
            throw EngineError(path + ": convolution " + std::to_string(i + 1) + " is " + shapeText(convs[i].first) +
                              ", the encoder expects " + shapeText(target->weight));
        target->weight.copy_(convs[i].first);
        if (convs[i].second.defined() && target->bias.defined() && convs[i].second.sizes() == target->bias.sizes())
            target->bias.copy_(convs[i].second);
    }
}

}  // namespace models
}  // namespace segstudio::engine
