#pragma once

#include <torch/torch.h>

namespace segstudio::engine {
inline namespace training {

// torch::optim::SGD (momentum, dampening, Nesterov, L2 weight decay: the SegNet recipe's optimiser)
// with each of its tensor operations applied to all the parameters at once (PyTorch's
// multi-tensor "foreach" operations) instead of one parameter at a time: on a GPU a few launches a
// step instead of about four per parameter tensor (AdamW's were most of a small step's host time:
// docs/SCALING.md, "The optimiser in a few launches"). LibTorch's arithmetic in LibTorch's order,
// so on the CPU it is bit for bit LibTorch's step; the state (momentum_buffer) is SGD's own, so
// checkpoints and resume are unchanged.
class MultiTensorSGD : public torch::optim::SGD {
public:
    using torch::optim::SGD::SGD;

    torch::Tensor step(LossClosure closure = nullptr) override;

private:
    void stepGroup(torch::optim::OptimizerParamGroup& group);
};

}  // namespace training
}  // namespace segstudio::engine
