#include "BatchNormAdaptation.h"

#include "engine/runtime/EngineError.h"

#include <cmath>
#include <string>

namespace segstudio::engine {
inline namespace inference {

std::vector<BatchNormAdaptation::Norm> BatchNormAdaptation::normsOf(torch::nn::Module& model)
{
    std::vector<Norm> norms;
    for (const auto& module : model.modules(/*include_self=*/true)) {
        auto* norm = module->as<torch::nn::BatchNorm2d>();
        if (!norm || !norm->options.track_running_stats())
            continue;
        norms.push_back({norm, norm->running_mean.clone(), norm->running_var.clone(),
                         norm->num_batches_tracked.defined() ? norm->num_batches_tracked.clone() : torch::Tensor(),
                         norm->options.momentum()});
    }
    return norms;
}

void BatchNormAdaptation::blend(const std::vector<Norm>& norms, double weight)
{
    for (const Norm& norm : norms) {
        auto* module = norm.module;
        if (weight == 0.0) {  // exactly as trained, whatever the observed batches left there
            module->running_mean.copy_(norm.trainedMean);
            module->running_var.copy_(norm.trainedVariance);
        } else {
            module->running_mean.mul_(weight).add_(norm.trainedMean, 1.0 - weight);
            module->running_var.mul_(weight).add_(norm.trainedVariance, 1.0 - weight);
        }
        if (norm.trainedBatches.defined())
            module->num_batches_tracked.copy_(norm.trainedBatches);
        module->options.momentum(norm.momentum);
        module->eval();
    }
}

void BatchNormAdaptation::adapt(torch::nn::Module& model, double weight, const std::function<void()>& observe)
{
    if (!std::isfinite(weight) || weight < 0.0 || weight > 1.0)
        throw EngineError("the batch-norm adaptation weight must lie in 0..1, not " + std::to_string(weight));
    if (weight == 0.0)
        return;
    torch::NoGradGuard noGrad;
    const auto norms = normsOf(model);
    for (const Norm& norm : norms) {
        norm.module->reset_running_stats();
        norm.module->options.momentum(c10::nullopt);  // a cumulative mean over the batches observed
        norm.module->train(true);                     // this module alone: dropout and the rest stay in eval
    }
    try {
        observe();
    } catch (...) {
        blend(norms, 0.0);  // the trained statistics back, as if never asked
        throw;
    }
    blend(norms, weight);
}

}  // namespace inference
}  // namespace segstudio::engine
