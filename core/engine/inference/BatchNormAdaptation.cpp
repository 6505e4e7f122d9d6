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

double BatchNormAdaptation::shiftOf(const std::vector<Norm>& norms)
{
    if (norms.empty())
        return 0.0;
    // The first batch norm: after the stem's convolution, its statistics are the images' local
    // contrast; deeper ones follow the scene's content as much as the kind of image.
    const Norm& first = norms.front();
    const double eps = first.module->options.eps();
    const auto observed = first.module->running_var.to(torch::kDouble) + eps;
    const auto trained = first.trainedVariance.to(torch::kDouble) + eps;
    return (observed / trained).log().abs().mean().item<double>();
}

void BatchNormAdaptation::checkWeight(double weight)
{
    if (!std::isfinite(weight) || weight < 0.0 || weight > 1.0)
        throw EngineError("the batch-norm adaptation weight must lie in 0..1, not " + std::to_string(weight));
}

BatchNormAdaptation::Result BatchNormAdaptation::adapt(torch::nn::Module& model, double weight,
                                                       const std::function<void()>& observe)
{
    checkWeight(weight);
    if (weight == 0.0)
        return {};
    return adapt(model, [weight](double) { return weight; }, observe);
}

BatchNormAdaptation::Result BatchNormAdaptation::adapt(torch::nn::Module& model,
                                                       const std::function<double(double shift)>& weightFor,
                                                       const std::function<void()>& observe)
{
    torch::NoGradGuard noGrad;
    const auto norms = normsOf(model);
    for (const Norm& norm : norms) {
        norm.module->reset_running_stats();
        norm.module->options.momentum(c10::nullopt);  // a cumulative mean over the batches observed
        norm.module->train(true);                     // this module alone: dropout and the rest stay in eval
    }
    Result result;
    try {
        observe();
        result.shift = shiftOf(norms);
        result.weight = weightFor(result.shift);
        checkWeight(result.weight);
    } catch (...) {
        blend(norms, 0.0);  // the trained statistics back, as if never asked
        throw;
    }
    blend(norms, result.weight);
    return result;
}

}  // namespace inference
}  // namespace segstudio::engine
