#include "SegmentationLoss.h"

#include <algorithm>
#include <cmath>

namespace segstudio::engine {
inline namespace inference {

SegmentationLoss::SegmentationLoss(const std::vector<double>& classWeights, torch::Device device, double hardPixelFraction)
    : m_hardPixelFraction(hardPixelFraction)
{
    if (!classWeights.empty())
        m_weights = torch::tensor(classWeights, torch::kDouble).to(torch::kFloat).to(device);
}

torch::Tensor SegmentationLoss::operator()(const torch::Tensor& logits, const torch::Tensor& labels) const
{
    namespace F = torch::nn::functional;
    const auto target = labels.to(torch::kLong);
    const auto floatLogits = logits.to(torch::kFloat);  // log-softmax in fp32 even under autocast
    auto options = F::CrossEntropyFuncOptions().ignore_index(kIgnoreIndex).reduction(torch::kNone);
    if (m_weights.defined())
        options.weight(m_weights);
    // Per-pixel losses are already multiplied by w[y] and 0 where ignored; dividing by the summed
    // weights ourselves (instead of reduction=mean) keeps an all-unlabelled batch at 0, not 0/0.
    const auto perPixel = F::cross_entropy(floatLogits, target, options);
    if (m_hardPixelFraction < 1.0) {
        const auto k = std::max<std::int64_t>(1, std::int64_t(std::ceil(m_hardPixelFraction * double(perPixel.numel()))));
        return std::get<0>(perPixel.reshape({-1}).topk(k, /*dim=*/0, /*largest=*/true, /*sorted=*/false)).mean();
    }
    const auto valid = target.ne(kIgnoreIndex);
    torch::Tensor denominator;
    if (m_weights.defined()) {
        const auto safeTarget = target.masked_fill(valid.logical_not(), 0);
        denominator = m_weights.index_select(0, safeTarget.reshape({-1})).reshape(target.sizes()).mul(valid).sum();
    } else {
        denominator = valid.sum().to(torch::kFloat);
    }
    return perPixel.sum() / denominator.clamp_min(1e-12);
}

}  // namespace inference
}  // namespace segstudio::engine
