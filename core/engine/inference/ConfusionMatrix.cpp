#include "ConfusionMatrix.h"

namespace segstudio::engine {
inline namespace inference {

ConfusionMatrix::ConfusionMatrix(int classes, torch::Device device)
    : m_classes(classes)
    , m_counts(torch::zeros({std::int64_t(classes) * classes}, torch::TensorOptions().dtype(torch::kLong).device(device)))
{
}

void ConfusionMatrix::add(const torch::Tensor& predictions, const torch::Tensor& labels)
{
    TORCH_CHECK(predictions.sizes() == labels.sizes(), "ConfusionMatrix: predictions and labels differ in shape");
    const auto truth = labels.reshape({-1}).to(torch::kLong);
    const auto guess = predictions.reshape({-1}).to(torch::kLong);
    const auto valid = truth.lt(m_classes).logical_and(guess.lt(m_classes)).logical_and(guess.ge(0));
    const auto index = truth.masked_select(valid) * m_classes + guess.masked_select(valid);
    m_counts += torch::bincount(index, {}, std::int64_t(m_classes) * m_classes);
}

void ConfusionMatrix::reset()
{
    m_counts.zero_();
}

std::vector<std::int64_t> ConfusionMatrix::counts() const
{
    const auto host = m_counts.to(torch::kCPU).contiguous();
    return std::vector<std::int64_t>(host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel());
}

SegmentationMetrics ConfusionMatrix::metrics() const
{
    return SegmentationMetrics::fromConfusion(counts(), m_classes);
}

}  // namespace inference
}  // namespace segstudio::engine
