#include "BilinearAxis.h"

#include <vector>

namespace segstudio::engine {
inline namespace models {

BilinearAxis::BilinearAxis(std::int64_t from, std::int64_t to)
    : m_from(from)
{
    // As ATen's upsample_bilinear2d computes them (in float): source = max(scale * (i + 0.5) - 0.5, 0),
    // scale = from / to; the upper neighbour is clamped to the last sample.
    const float scale = float(from) / float(to);
    const auto source = ((torch::arange(to, torch::kFloat) + 0.5f) * scale - 0.5f).clamp_min(0.0f);
    m_lower = source.to(torch::kLong).clamp_max(from - 1);
    m_upper = (m_lower + 1).clamp_max(from - 1);
    m_weight = source - m_lower.to(torch::kFloat);
}

BilinearAxis BilinearAxis::slice(std::int64_t begin, std::int64_t end) const
{
    BilinearAxis part;
    part.m_from = m_from;
    part.m_lower = m_lower.slice(0, begin, end);
    part.m_upper = m_upper.slice(0, begin, end);
    part.m_weight = m_weight.slice(0, begin, end);
    return part;
}

torch::Tensor BilinearAxis::apply(const torch::Tensor& input, std::int64_t dim) const
{
    const auto device = input.device();
    return mix(input.index_select(dim, m_lower.to(device)), input.index_select(dim, m_upper.to(device)), dim);
}

torch::Tensor BilinearAxis::matrix() const
{
    const auto to = m_weight.size(0);
    auto matrix = torch::zeros({to, m_from}, torch::kFloat);
    const auto rows = torch::arange(to, torch::kLong);
    // Accumulated: where lower == upper (the clamped edge) the row's one weight sums to 1.
    matrix.index_put_({rows, m_lower}, 1.0f - m_weight, /*accumulate=*/true);
    matrix.index_put_({rows, m_upper}, m_weight, /*accumulate=*/true);
    return matrix;
}

torch::Tensor BilinearAxis::mix(const torch::Tensor& atLower, const torch::Tensor& atUpper, std::int64_t dim) const
{
    std::vector<std::int64_t> shape(std::size_t(atLower.dim()), 1);
    shape[std::size_t(dim)] = m_weight.size(0);
    // One kernel, one result: no full-size temporaries beyond the two gathers.
    return torch::lerp(atLower, atUpper, m_weight.to(atLower.device()).view(shape));
}

}  // namespace models
}  // namespace segstudio::engine
