#pragma once

#include <torch/torch.h>

namespace segstudio::engine {
inline namespace training {

// torch::optim::AdamW with its CPU step fused: one pass over each parameter's memory, on all
// intra-op threads, instead of eight tensor operations (eight passes) one parameter at a time.
// For a ResNet-18 DeepLabV3+ (11.6 M parameters) on two cores LibTorch's step takes 37.6 ms of a
// ~270 ms training step, this one 13.8 ms (docs/BENCHMARKS.md). The state (step, exp_avg, exp_avg_sq) is
// AdamW's own, so checkpoints and resume are unchanged. Parameters the fused pass cannot take
// (not CPU float32, layouts that differ, amsgrad) get LibTorch's step, per parameter.
class FusedAdamW : public torch::optim::AdamW {
public:
    using torch::optim::AdamW::AdamW;

    torch::Tensor step(LossClosure closure = nullptr) override;

private:
    void stepWithTensors(torch::Tensor& parameter, torch::optim::AdamWParamState& state,
                         const torch::optim::AdamWOptions& options);
    torch::optim::AdamWParamState& stateOf(const torch::Tensor& parameter);
};

}  // namespace training
}  // namespace segstudio::engine
