#include "FiniteModelCheck.h"

#include "NonFiniteParameters.h"

#include <vector>

namespace segstudio::engine {
inline namespace training {

void FiniteModelCheck::require(const torch::nn::Module& model, std::int64_t iteration, int epoch, const std::string& fileName)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> finite;
    for (const auto& parameter : model.parameters())
        finite.push_back(torch::isfinite(parameter).all());
    for (const auto& buffer : model.buffers())
        if (buffer.is_floating_point())
            finite.push_back(torch::isfinite(buffer).all());
    if (finite.empty() || torch::stack(finite).all().item<bool>())
        return;
    throw NonFiniteParameters("parameters became NaN/infinite by iteration " + std::to_string(iteration) + " (epoch " +
                              std::to_string(epoch) + ") while the loss was finite; " + fileName +
                              " was not written, the last good checkpoint is kept. Try a lower learning rate.");
}

}  // namespace training
}  // namespace segstudio::engine
