#pragma once

#include <torch/torch.h>

#include <string>

namespace segstudio::engine {
inline namespace runtime {

// "64x3x3x3": a tensor's shape for error messages about weights that do not fit.
inline std::string shapeText(const torch::Tensor& tensor)
{
    std::string text;
    for (auto size : tensor.sizes())
        text += (text.empty() ? "" : "x") + std::to_string(size);
    return text;
}

}  // namespace runtime
}  // namespace segstudio::engine
