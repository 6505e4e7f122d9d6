#pragma once

#include <torch/torch.h>

#include <cstdint>

namespace segstudio::engine {
inline namespace models {

// PyTorch's bilinear resize (align_corners = false, no antialiasing) along one axis, as index
// pairs and weights: out[i] = in[lower[i]] * (1 - weight[i]) + in[upper[i]] * weight[i]. One axis
// after the other, and on any band of output rows, it gives what one F::interpolate call over
// the whole tensor gives (to float rounding), so a large image or score map can be resized piece
// by piece in bounded memory.
class BilinearAxis {
public:
    BilinearAxis(std::int64_t from, std::int64_t to);

    // Output samples [begin, end) only.
    BilinearAxis slice(std::int64_t begin, std::int64_t end) const;
    // Resizes a floating-point tensor along dim.
    torch::Tensor apply(const torch::Tensor& input, std::int64_t dim) const;
    // The same resize as a [to, from] float matrix (two weights a row): a matrix product resizes.
    torch::Tensor matrix() const;
    // Blends values already gathered at lower() and upper() along dim.
    torch::Tensor mix(const torch::Tensor& atLower, const torch::Tensor& atUpper, std::int64_t dim) const;

    const torch::Tensor& lower() const { return m_lower; }  // int64, on the CPU
    const torch::Tensor& upper() const { return m_upper; }

private:
    BilinearAxis() = default;

    torch::Tensor m_lower;
    torch::Tensor m_upper;
    torch::Tensor m_weight;  // float
    std::int64_t m_from = 0;
};

}  // namespace models
}  // namespace segstudio::engine
