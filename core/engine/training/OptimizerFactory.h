#pragma once

#include "TrainConfig.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace segstudio::engine {
inline namespace training {

// The optimiser a configuration asks for (sgd, adam, adamw) over the given parameters, with its
// learning rate, momentum or betas and effective weight decay. fusedSteps: AdamW's step fused
// (FusedAdamW) and SGD's in multi-tensor operations (MultiTensorSGD), each with the same state and
// checkpoints as LibTorch's class; false gives LibTorch's own class, for a copy that only ever
// holds state to be saved.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const TrainConfig& config, std::vector<torch::Tensor> parameters,
                                                       bool fusedSteps = true);

}  // namespace training
}  // namespace segstudio::engine
