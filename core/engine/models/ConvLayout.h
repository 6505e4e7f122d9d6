#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace segstudio::engine {
inline namespace models {

// The convolutions of a fully convolutional model with the output stride of each (relative to the
// input), so the model's FLOPs at any input size follow without running it.
// Requirements: every conv is recorded once, with the stride of its output.
class ConvLayout {
public:
    void add(const torch::nn::Conv2d& conv, std::int64_t outputStride) { m_convs.push_back({conv, outputStride}); }

    // A padded ("same") convolution, recorded: kernel/2 x dilation padding keeps the size at stride 1.
    torch::nn::Conv2d conv(int in, int out, int kernel, std::int64_t outputStride, int stride = 1, int dilation = 1,
                           int groups = 1, bool bias = false)
    {
        torch::nn::Conv2d c(torch::nn::Conv2dOptions(in, out, kernel)
                                .stride(stride)
                                .padding(dilation * (kernel / 2))
                                .dilation(dilation)
                                .groups(groups)
                                .bias(bias));
        add(c, outputStride);
        return c;
    }

    // 2 x multiply-adds of all recorded convolutions at this input size (strided convs round up,
    // as a padded 3x3/stride-2 conv does).
    double flops(std::int64_t height, std::int64_t width) const
    {
        double total = 0;
        for (const auto& [conv, stride] : m_convs) {
            const auto& o = conv->options;
            const double pixels = double((height + stride - 1) / stride) * double((width + stride - 1) / stride);
            const double kernel = double(o.kernel_size()->at(0)) * double(o.kernel_size()->at(1));
            total += 2.0 * double(o.out_channels()) * double(o.in_channels() / o.groups()) * kernel * pixels;
        }
        return total;
    }

private:
    struct Entry {
        torch::nn::Conv2d conv;
        std::int64_t outputStride;
    };
    std::vector<Entry> m_convs;
};

}  // namespace models
}  // namespace segstudio::engine
