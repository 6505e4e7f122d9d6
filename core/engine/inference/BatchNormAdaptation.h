#pragma once

#include <torch/torch.h>

#include <functional>
#include <vector>

namespace segstudio::engine {
inline namespace inference {

// Test-time adaptation of a model's batch norms to images of another domain (AdaBN: Li et al.,
// "Revisiting Batch Normalization For Practical Domain Adaptation", 2016): each batch norm's
// running mean and variance are estimated again on the new images (no labels, no gradient, no
// weight changes) and blended with the statistics it trained with. A model trained on daylight
// frames normalises dusk frames by daylight statistics; its activations then fall where it never
// learned to decide (LABELING.md, "The model at dusk without retraining").
// Requirements: the model in eval mode; `observe` runs the model's forward pass over the new
//   images, at most a few batches, each a batch of several images where it can (a batch's
//   statistics are pooled; the batches are averaged alike).
// Guarantees: weight 0 leaves every statistic bit-identical; weight 1 puts the new images' own;
//   in between, (1 - weight) x trained + weight x new. The model is left in eval mode, its
//   momentum and every module's training flag as they were.
class BatchNormAdaptation {
public:
    static void adapt(torch::nn::Module& model, double weight, const std::function<void()>& observe);

private:
    struct Norm {
        torch::nn::BatchNorm2dImpl* module;
        torch::Tensor trainedMean;
        torch::Tensor trainedVariance;
        torch::Tensor trainedBatches;
        c10::optional<double> momentum;
    };
    static std::vector<Norm> normsOf(torch::nn::Module& model);
    static void blend(const std::vector<Norm>& norms, double weight);
};

}  // namespace inference
}  // namespace segstudio::engine
