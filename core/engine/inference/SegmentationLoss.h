#pragma once

#include <torch/torch.h>

#include <vector>

namespace segstudio::engine {
inline namespace inference {

// Class-weighted cross-entropy that ignores unlabelled pixels (255):
//   loss = sum_i w[y_i] * -log softmax(logits_i)[y_i] / sum_i w[y_i]   over labelled pixels i,
// PyTorch's weighted mean. A batch without labelled pixels gives 0, never NaN.
// With hardPixelFraction f < 1 it is the top-k ("online hard example mining") loss instead: the
// mean of the k = ceil(f x N x H x W) largest per-pixel (weighted) losses of the batch, unlabelled
// pixels counting as 0, so easy pixels (sky, road) stop drowning the hard ones; k is fixed by the
// batch shape, so no host synchronisation is needed.
// Requirements: logits N x C x H x W, labels N x H x W integer; weights empty (all 1) or C values;
// 0 < hardPixelFraction <= 1.
class SegmentationLoss {
public:
    static constexpr std::int64_t kIgnoreIndex = 255;

    explicit SegmentationLoss(const std::vector<double>& classWeights = {}, torch::Device device = torch::kCPU,
                              double hardPixelFraction = 1.0);

    torch::Tensor operator()(const torch::Tensor& logits, const torch::Tensor& labels) const;
    const torch::Tensor& weights() const { return m_weights; }

private:
    torch::Tensor m_weights;  // float, undefined = unweighted
    double m_hardPixelFraction;
};

}  // namespace inference
}  // namespace segstudio::engine
