#include "OptimizerFactory.h"

#include "FusedAdamW.h"
#include "MultiTensorSGD.h"

namespace segstudio::engine {
inline namespace training {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const TrainConfig& config, std::vector<torch::Tensor> parameters,
                                                       bool fusedSteps)
{
    const double weightDecay = config.effectiveWeightDecay();
    if (config.optimizer == "sgd") {
        const auto options = torch::optim::SGDOptions(config.learningRate).momentum(config.momentum).weight_decay(weightDecay);
        if (fusedSteps)
            return std::make_unique<MultiTensorSGD>(parameters, options);
        return std::make_unique<torch::optim::SGD>(parameters, options);
    }
    if (config.optimizer == "adam")
        return std::make_unique<torch::optim::Adam>(parameters, torch::optim::AdamOptions(config.learningRate)
                                                                    .betas(std::make_tuple(config.beta1, config.beta2))
                                                                    .weight_decay(weightDecay));
    const auto options = torch::optim::AdamWOptions(config.learningRate)
                             .betas(std::make_tuple(config.beta1, config.beta2))
                             .weight_decay(weightDecay);
    if (fusedSteps)
        return std::make_unique<FusedAdamW>(parameters, options);
    return std::make_unique<torch::optim::AdamW>(parameters, options);
}

}  // namespace training
}  // namespace segstudio::engine
