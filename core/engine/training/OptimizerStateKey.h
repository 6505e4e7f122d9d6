#pragma once

#include <torch/torch.h>

#include <sstream>
#include <string>
#include <type_traits>

namespace segstudio::engine {
inline namespace training {

// The key of a parameter's entry in torch::optim::Optimizer::state(): its TensorImpl's address
// printed in LibTorch 1.13, the pointer itself in 2.x. Key is the map's key_type.
template <typename Key>
Key optimizerStateKey(const torch::Tensor& parameter)
{
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream key;
        key << parameter.unsafeGetTensorImpl();
        return key.str();
    } else {
        return static_cast<Key>(parameter.unsafeGetTensorImpl());
    }
}

}  // namespace training
}  // namespace segstudio::engine
