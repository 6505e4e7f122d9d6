#pragma once

// Test-only: Augmenter::apply as it was before it was batched (issue 48), one sample at a time:
// jitter, F::interpolate + fitTo, flip, shift by pad/narrow, crop by narrow, then torch::stack.
// Kept verbatim as the specification the batched apply is checked against; never built into
// the engine.

#include "engine/input/Augmenter.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace segstudio::engine::reference {

namespace detail {

constexpr double kUnlabelledFill = 255;

// How far fitTo moves content along one axis from size to target: left/up by the cut-off offset,
// right/down by the padding before it.
inline double fitShift(std::int64_t size, std::int64_t target, double where)
{
    const double offset = std::floor(where * double(std::abs(size - target)));
    if (size > target)
        return -std::min(offset, double(size - target));
    return size < target ? offset : 0.0;
}

// min(floor((i + 0.5) * size / target), size - 1): torch's nearest-exact.
inline torch::Tensor nearestSources(std::int64_t size, std::int64_t target, const torch::Device& device)
{
    const auto centres = (torch::arange(target, torch::kFloat64) + 0.5) * (double(size) / double(target));
    return centres.floor_().clamp_max_(double(size - 1)).to(torch::kLong).to(device);
}

// image: 3 x H x W in 0..255; the factors in torchvision's order, the result clamped to 0..255.
inline torch::Tensor jitterColour(const torch::Tensor& image, const SampleTransform& transform)
{
    // ITU-R 601 luma, as torchvision's rgb_to_grayscale.
    const auto grey = [](const torch::Tensor& rgb) {
        return (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]).unsqueeze(0);
    };
    auto out = (image * transform.brightness).clamp(0.0, 255.0);
    const auto mean = grey(out).mean();
    out = (mean + transform.contrast * (out - mean)).clamp(0.0, 255.0);
    const auto luma = grey(out);
    return (luma + transform.saturation * (out - luma)).clamp(0.0, 255.0);
}

inline std::pair<std::int64_t, std::int64_t> windowOrigin(std::int64_t fullHeight, std::int64_t fullWidth,
                                                          const SampleTransform& transform, std::int64_t height,
                                                          std::int64_t width, double anchorY, double anchorX)
{
    auto origin = [&](std::int64_t full, std::int64_t size, double where, double anchor) -> std::int64_t {
        if (size >= full)
            return 0;
        if (!transform.anchored)
            return std::min(full - size, std::int64_t(std::floor(where * double(full - size + 1))));
        // The anchor lands in the window's middle half, at a place the window position draws.
        const double inWindow = (0.25 + 0.5 * where) * double(size - 1);
        return std::clamp<std::int64_t>(std::llround(anchor - inWindow), 0, full - size);
    };
    return {origin(fullHeight, height, transform.windowY, anchorY), origin(fullWidth, width, transform.windowX, anchorX)};
}

inline torch::Tensor shift(const torch::Tensor& tensor, int dy, int dx, double fill)
{
    const std::int64_t height = tensor.size(-2), width = tensor.size(-1);
    const std::int64_t padY = std::abs(dy), padX = std::abs(dx);
    auto padded = torch::constant_pad_nd(tensor, {padX, padX, padY, padY}, fill);
    // out[y] = in[y - dy], i.e. padded[y - dy + padY].
    return padded.narrow(-2, padY - dy, height).narrow(-1, padX - dx, width);
}

inline torch::Tensor fitTo(const torch::Tensor& tensor, std::int64_t height, std::int64_t width, double cropY,
                           double cropX, double fill)
{
    auto fitAxis = [&](torch::Tensor t, std::int64_t dim, std::int64_t target, double where) {
        const std::int64_t size = t.size(dim);
        const std::int64_t offset = std::int64_t(std::floor(where * double(std::abs(size - target))));
        if (size > target)
            return t.narrow(dim, std::min(offset, size - target), target);
        if (size < target) {
            std::vector<std::int64_t> pad(std::size_t(2 * t.dim()), 0);
            // constant_pad_nd lists the last dimension first: (left, right) per dimension.
            const std::size_t slot = std::size_t(2 * (t.dim() - 1 - (dim < 0 ? t.dim() + dim : dim)));
            pad[slot] = offset;
            pad[slot + 1] = target - size - offset;
            return torch::constant_pad_nd(t, pad, fill);
        }
        return t;
    };
    return fitAxis(fitAxis(tensor, -2, height, cropY), -1, width, cropX);
}

}  // namespace detail

// Augmenter(options).apply(images, labels, transforms) as it was: one sample at a time.
inline std::pair<torch::Tensor, torch::Tensor> apply(const AugmentOptions& options, const torch::Tensor& images,
                                                     const torch::Tensor& labels,
                                                     const std::vector<SampleTransform>& transforms)
{
    using namespace detail;
    TORCH_CHECK(images.size(0) == std::int64_t(transforms.size()), "Augmenter: one transform per sample");
    const std::int64_t height = images.size(2), width = images.size(3);
    const bool cropping = options.cropHeight > 0;
    const std::int64_t windowHeight = cropping ? std::min<std::int64_t>(options.cropHeight, height) : height;
    const std::int64_t windowWidth = cropping ? std::min<std::int64_t>(options.cropWidth, width) : width;
    std::vector<torch::Tensor> outImages, outLabels;
    for (std::size_t i = 0; i < transforms.size(); ++i) {
        const auto& t = transforms[i];
        auto image = images[std::int64_t(i)];
        auto label = labels[std::int64_t(i)];
        // The anchor pixel, followed through each geometric step (pixel centres).
        double anchorX = t.anchorX, anchorY = t.anchorY;
        // Before any geometric step, so the black pixels shifted or padded in stay black.
        if (options.colorJitter > 0)
            image = jitterColour(image, t);
        if (t.scale != 1.0) {
            const std::int64_t h = std::max<std::int64_t>(1, std::llround(double(height) * t.scale));
            const std::int64_t w = std::max<std::int64_t>(1, std::llround(double(width) * t.scale));
            namespace F = torch::nn::functional;
            image = F::interpolate(image.unsqueeze(0), F::InterpolateFuncOptions()
                                                           .size(std::vector<std::int64_t>{h, w})
                                                           .mode(torch::kBilinear)
                                                           .align_corners(false))
                        .squeeze(0);
            label = label.index_select(-2, nearestSources(height, h, label.device()))
                        .index_select(-1, nearestSources(width, w, label.device()));
            // Without a training crop the sample goes back to the batch's size. With one, the scaled
            // image stays whole and the window is cut from it, padded only up to the window: a
            // zoomed-out sample (0.5x) is seen whole, not as a window that is mostly padding.
            const std::int64_t fitHeight = cropping ? std::max(h, windowHeight) : height;
            const std::int64_t fitWidth = cropping ? std::max(w, windowWidth) : width;
            anchorX = (anchorX + 0.5) * double(w) / double(width) - 0.5 + fitShift(w, fitWidth, t.cropX);
            anchorY = (anchorY + 0.5) * double(h) / double(height) - 0.5 + fitShift(h, fitHeight, t.cropY);
            image = fitTo(image, fitHeight, fitWidth, t.cropY, t.cropX, 0.0);
            label = fitTo(label, fitHeight, fitWidth, t.cropY, t.cropX, kUnlabelledFill);
        }
        if (t.flip) {
            image = image.flip({-1});
            label = label.flip({-1});
            anchorX = double(image.size(-1) - 1) - anchorX;
        }
        if (t.dx != 0 || t.dy != 0) {
            image = shift(image, t.dy, t.dx, 0.0);
            label = shift(label, t.dy, t.dx, kUnlabelledFill);
            anchorX += t.dx;
            anchorY += t.dy;
        }
        if (cropping) {
            const auto [top, left] =
                windowOrigin(image.size(-2), image.size(-1), t, windowHeight, windowWidth, anchorY, anchorX);
            image = image.narrow(-2, top, windowHeight).narrow(-1, left, windowWidth);
            label = label.narrow(-2, top, windowHeight).narrow(-1, left, windowWidth);
        }
        outImages.push_back(image);
        outLabels.push_back(label);
    }
    return {torch::stack(outImages), torch::stack(outLabels)};
}

}  // namespace segstudio::engine::reference
