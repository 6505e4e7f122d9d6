#pragma once

#include <torch/torch.h>

namespace segstudio::engine {
inline namespace training {

// torch::optim::AdamW with its step fused. On the CPU: one pass over each parameter's memory, on all
// intra-op threads, instead of eight tensor operations (eight passes) one parameter at a time.
// For a ResNet-18 DeepLabV3+ (11.6 M parameters) on two cores LibTorch's step takes 37.6 ms of a
// ~270 ms training step, this one 13.8 ms (docs/BENCHMARKS.md). On a GPU: the same eight
// operations, each once for all the parameters (PyTorch's multi-tensor "foreach" kernels), not once
// per parameter: about ten launches a step instead of about a thousand, which left the GPU idle
// three quarters of a small-batch step (docs/SCALING.md, "Side by side"). The state (step, exp_avg,
// exp_avg_sq) is AdamW's own, so checkpoints and resume are unchanged. amsgrad gets LibTorch's
// step, per parameter.
class FusedAdamW : public torch::optim::AdamW {
public:
    using torch::optim::AdamW::AdamW;

    torch::Tensor step(LossClosure closure = nullptr) override;

    // How CPU float parameters step: the one-pass kernel (default), or the multi-tensor path the
    // GPU takes, so that tests on a machine without one check the GPU's arithmetic.
    enum class CpuPath { OnePass, MultiTensor };
    void setCpuPath(CpuPath path) { m_cpuPath = path; }

private:
    struct MultiTensorGroup;
    bool takesOnePass(const torch::Tensor& parameter, const torch::optim::AdamWParamState& state) const;
    static void stepMultiTensor(MultiTensorGroup& group, const torch::optim::AdamWOptions& options);
    CpuPath m_cpuPath = CpuPath::OnePass;

    void stepWithTensors(torch::Tensor& parameter, torch::optim::AdamWParamState& state,
                         const torch::optim::AdamWOptions& options);
    torch::optim::AdamWParamState& stateOf(const torch::Tensor& parameter);
};

}  // namespace training
}  // namespace segstudio::engine
