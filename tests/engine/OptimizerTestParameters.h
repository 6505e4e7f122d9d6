#pragma once

#include <torch/torch.h>

#include <vector>

namespace segstudio::enginetest {

// Parameters of the shapes a model has, for the optimiser tests: a conv weight (channels-last
// when asked), a bias, a large vector that threads split, a scalar; the same every call.
inline std::vector<torch::Tensor> makeParameters(bool channelsLast = false)
{
    torch::manual_seed(7);
    std::vector<torch::Tensor> parameters{torch::randn({16, 8, 3, 3}), torch::randn({16}), torch::randn({70001}),
                                          torch::randn({})};
    if (channelsLast)
        parameters[0] = parameters[0].contiguous(torch::MemoryFormat::ChannelsLast);
    for (auto& p : parameters)
        p.set_requires_grad(true);
    return parameters;
}

// Detached copies with the same values and layouts, for the reference optimiser.
inline std::vector<torch::Tensor> copies(const std::vector<torch::Tensor>& parameters)
{
    std::vector<torch::Tensor> result;
    for (const auto& p : parameters)
        result.push_back(p.detach().clone(torch::MemoryFormat::Preserve).set_requires_grad(true));
    return result;
}

}  // namespace segstudio::enginetest
