#pragma once

#include "TrainConfig.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace segstudio::engine {
inline namespace training {

// The optimiser a configuration asks for (sgd, adam, adamw) over the given parameters, with its
// learning rate, momentum or betas and effective weight decay. fusedSteps: AdamW's step fused
// for CPU float parameters (FusedAdamW, the same state and checkpoints as LibTorch's AdamW);
// false gives LibTorch's own class, for a copy that only ever holds state to be saved.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const TrainConfig& config, std::vector<torch::Tensor> parameters,
                                                       bool fusedSteps = true);

}  // namespace training
}  // namespace segstudio::engine
