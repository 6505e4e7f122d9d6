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
// The shift: how far the new images lie from the training images, at the model's first batch norm
// (in module order: the stem's): the mean over its channels of |log(new variance / trained
// variance)|, 0 for the trained statistics themselves. Dusk, haze or another camera change the
// images' contrast there; by day it stays near CamVid's frame-to-frame spread (docs/LABELING.md,
// "Adapt only images of another kind"). A gate on it adapts only images of another kind.
class BatchNormAdaptation {
public:
    struct Result {
        double shift = 0.0;   // of the observed images (0 when nothing was observed)
        double weight = 0.0;  // the blend applied
    };
    static Result adapt(torch::nn::Module& model, double weight, const std::function<void()>& observe);
    // The weight chosen from the observed images' shift (by weightFor, which returns 0..1).
    static Result adapt(torch::nn::Module& model, const std::function<double(double shift)>& weightFor,
                        const std::function<void()>& observe);

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
    static double shiftOf(const std::vector<Norm>& norms);
    static void checkWeight(double weight);
};

}  // namespace inference
}  // namespace segstudio::engine
