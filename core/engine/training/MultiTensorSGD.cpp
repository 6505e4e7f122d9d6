#include "MultiTensorSGD.h"

#include "OptimizerStateKey.h"

#include <memory>
#include <vector>

namespace segstudio::engine {
inline namespace training {

torch::Tensor MultiTensorSGD::step(LossClosure closure)
{
    torch::NoGradGuard noGrad;
    torch::Tensor loss;
    if (closure) {
        torch::AutoGradMode enableGrad(true);
        loss = closure();
    }
    for (auto& group : param_groups())
        stepGroup(group);
    return loss;
}

// LibTorch's SGD::step for one group: d_p = grad + weight_decay x p; buf = clone(d_p) on the first
// step, else buf x momentum + (1 - dampening) x d_p; d_p = buf (Nesterov: d_p + momentum x buf);
// p -= lr x d_p.
void MultiTensorSGD::stepGroup(torch::optim::OptimizerParamGroup& group)
{
    const auto& options = static_cast<const torch::optim::SGDOptions&>(group.options());
    std::vector<torch::Tensor> parameters, gradients;
    for (auto& parameter : group.params()) {
        if (!parameter.grad().defined())
            continue;
        TORCH_CHECK(!parameter.grad().is_sparse(), "MultiTensorSGD does not support sparse gradients");
        parameters.push_back(parameter);
        gradients.push_back(parameter.grad());
    }
    if (parameters.empty())
        return;
    std::vector<torch::Tensor> steps =
        options.weight_decay() != 0 ? at::_foreach_add(gradients, parameters, at::Scalar(options.weight_decay())) : gradients;
    if (options.momentum() != 0) {
        using Key = typename std::decay_t<decltype(state())>::key_type;
        // buffers: every parameter's, for d_p; decaying / continuing: those that existed before this
        // step, with their d_p, which decay and take it.
        std::vector<torch::Tensor> buffers, decaying, continuing;
        for (std::size_t i = 0; i < parameters.size(); ++i) {
            auto& slot = state()[optimizerStateKey<Key>(parameters[i])];
            if (!slot) {  // the first step: the buffer starts as this step's d_p
                auto fresh = std::make_unique<torch::optim::SGDParamState>();
                fresh->momentum_buffer(torch::clone(steps[i]).detach());
                buffers.push_back(fresh->momentum_buffer());
                slot = std::move(fresh);
                continue;
            }
            buffers.push_back(static_cast<torch::optim::SGDParamState&>(*slot).momentum_buffer());
            decaying.push_back(buffers.back());
            continuing.push_back(steps[i]);
        }
        if (!decaying.empty()) {
            at::_foreach_mul_(decaying, at::Scalar(options.momentum()));
            at::_foreach_add_(decaying, continuing, at::Scalar(1 - options.dampening()));
        }
        steps = options.nesterov() ? at::_foreach_add(steps, buffers, at::Scalar(options.momentum())) : buffers;
    }
    at::_foreach_add_(parameters, steps, at::Scalar(-options.lr()));
}

}  // namespace training
}  // namespace segstudio::engine
