#include "FusedAdamW.h"

#include "AdamWKernel.h"
#include "OptimizerStateKey.h"

#include <ATen/Parallel.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace segstudio::engine {
inline namespace training {

namespace {

bool fusable(const torch::Tensor& parameter, const torch::Tensor& gradient, const torch::optim::AdamWParamState& state)
{
    const auto sameDenseLayout = [&](const torch::Tensor& t) {
        return t.device().is_cpu() && t.scalar_type() == torch::kFloat && t.strides() == parameter.strides() &&
               t.is_non_overlapping_and_dense() && !t.is_sparse();
    };
    return sameDenseLayout(parameter) && sameDenseLayout(gradient) && sameDenseLayout(state.exp_avg()) &&
           sameDenseLayout(state.exp_avg_sq());
}

// Counts the step and returns AdamW's bias corrections for it: 1 - beta1^t, 1 - beta2^t.
std::pair<double, double> advance(torch::optim::AdamWParamState& state, const torch::optim::AdamWOptions& options)
{
    state.step(state.step() + 1);
    const double t = double(state.step());
    return {1 - std::pow(std::get<0>(options.betas()), t), 1 - std::pow(std::get<1>(options.betas()), t)};
}

}  // namespace

torch::optim::AdamWParamState& FusedAdamW::stateOf(const torch::Tensor& parameter)
{
    using Key = typename std::decay_t<decltype(state())>::key_type;
    auto& slot = state()[optimizerStateKey<Key>(parameter)];
    if (!slot) {
        auto fresh = std::make_unique<torch::optim::AdamWParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(parameter, torch::MemoryFormat::Preserve));
        fresh->exp_avg_sq(torch::zeros_like(parameter, torch::MemoryFormat::Preserve));
        slot = std::move(fresh);
    }
    return static_cast<torch::optim::AdamWParamState&>(*slot);
}

// Parameters of one group that step together in multi-tensor operations: same device, dtype and
// step count (so the same bias corrections).
struct FusedAdamW::MultiTensorGroup {
    std::vector<torch::Tensor> parameters, gradients, averages, squareAverages;
    std::vector<torch::optim::AdamWParamState*> states;
};

bool FusedAdamW::takesOnePass(const torch::Tensor& parameter, const torch::optim::AdamWParamState& state) const
{
    return m_cpuPath == CpuPath::OnePass && fusable(parameter, parameter.grad(), state);
}

// LibTorch's AdamW arithmetic (stepWithTensors) with each operation applied to all the group's
// tensors at once.
void FusedAdamW::stepMultiTensor(MultiTensorGroup& group, const torch::optim::AdamWOptions& options)
{
    std::pair<double, double> corrections;
    for (auto* state : group.states)
        corrections = advance(*state, options);  // the same step count in all, so the same pair
    const auto [correction1, correction2] = corrections;
    const double beta1 = std::get<0>(options.betas()), beta2 = std::get<1>(options.betas());
    if (options.weight_decay() != 0)
        at::_foreach_mul_(group.parameters, at::Scalar(1 - options.lr() * options.weight_decay()));
    at::_foreach_mul_(group.averages, at::Scalar(beta1));
    at::_foreach_add_(group.averages, group.gradients, at::Scalar(1 - beta1));
    at::_foreach_mul_(group.squareAverages, at::Scalar(beta2));
    at::_foreach_addcmul_(group.squareAverages, group.gradients, group.gradients, at::Scalar(1 - beta2));
    auto denominators = at::_foreach_sqrt(group.squareAverages);
    at::_foreach_div_(denominators, at::Scalar(std::sqrt(correction2)));
    at::_foreach_add_(denominators, at::Scalar(options.eps()));
    at::_foreach_addcdiv_(group.parameters, group.averages, denominators, at::Scalar(-options.lr() / correction1));
}

torch::Tensor FusedAdamW::step(LossClosure closure)
{
    torch::NoGradGuard noGrad;
    torch::Tensor loss;
    if (closure) {
        torch::AutoGradMode enableGrad(true);
        loss = closure();
    }
    for (auto& group : param_groups()) {
        const auto& options = static_cast<const torch::optim::AdamWOptions&>(group.options());
        std::map<std::tuple<std::string, int, std::int64_t>, MultiTensorGroup> multiTensor;
        for (auto& parameter : group.params()) {
            if (!parameter.grad().defined())
                continue;
            TORCH_CHECK(!parameter.grad().is_sparse(), "AdamW does not support sparse gradients");
            if (options.amsgrad()) {
                // LibTorch's own step keeps amsgrad's extra state; its step is per parameter.
                stepWithTensors(parameter, stateOf(parameter), options);
                continue;
            }
            auto& state = stateOf(parameter);
            if (!takesOnePass(parameter, state)) {
                auto& together = multiTensor[{parameter.device().str(), int(parameter.scalar_type()), state.step()}];
                together.parameters.push_back(parameter);
                together.gradients.push_back(parameter.grad());
                together.averages.push_back(state.exp_avg());
                together.squareAverages.push_back(state.exp_avg_sq());
                together.states.push_back(&state);
                continue;
            }
            const auto [correction1, correction2] = advance(state, options);
            const AdamWCoefficients c{float(1 - options.lr() * options.weight_decay()),
                                      float(std::get<0>(options.betas())), float(std::get<1>(options.betas())),
                                      float(1 / std::sqrt(correction2)), float(options.eps()),
                                      float(options.lr() / correction1)};
            float* p = parameter.data_ptr<float>();
            const float* g = parameter.grad().data_ptr<float>();
            float* m = state.exp_avg().data_ptr<float>();
            float* v = state.exp_avg_sq().data_ptr<float>();
            at::parallel_for(0, parameter.numel(), 16384, [&](std::int64_t begin, std::int64_t end) {
                adamWUpdate(p + begin, g + begin, m + begin, v + begin, end - begin, c);
            });
        }
        for (auto& [key, together] : multiTensor)
            stepMultiTensor(together, options);
    }
    return loss;
}

// LibTorch's AdamW arithmetic as tensor operations, for what the fused pass cannot take.
void FusedAdamW::stepWithTensors(torch::Tensor& parameter, torch::optim::AdamWParamState& state,
                                 const torch::optim::AdamWOptions& options)
{
    const auto& gradient = parameter.grad();
    if (options.weight_decay() != 0)
        parameter.mul_(1 - options.lr() * options.weight_decay());
    const auto [correction1, correction2] = advance(state, options);
    const double beta1 = std::get<0>(options.betas()), beta2 = std::get<1>(options.betas());
    state.exp_avg().mul_(beta1).add_(gradient, 1 - beta1);
    state.exp_avg_sq().mul_(beta2).addcmul_(gradient, gradient, 1 - beta2);
    torch::Tensor squareAverage = state.exp_avg_sq();
    if (options.amsgrad()) {
        if (!state.max_exp_avg_sq().defined())
            state.max_exp_avg_sq(torch::zeros_like(parameter, torch::MemoryFormat::Preserve));
        torch::max_out(state.max_exp_avg_sq(), state.max_exp_avg_sq(), squareAverage);
        squareAverage = state.max_exp_avg_sq();
    }
    const auto denominator = (squareAverage.sqrt() / std::sqrt(correction2)).add_(options.eps());
    parameter.addcdiv_(state.exp_avg(), denominator, -options.lr() / correction1);
}

}  // namespace training
}  // namespace segstudio::engine
