#include "Augmenter.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace segstudio::engine {

namespace {

constexpr double kUnlabelledFill = 255.0;

double uniform(std::mt19937_64& random, double low, double high)
{
    // Not std::uniform_real_distribution: its output differs between standard libraries.
    return low + (high - low) * double(random() >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace

Augmenter::Augmenter(AugmentOptions options)
    : m_options(options)
{
}

std::vector<SampleTransform> Augmenter::draw(std::int64_t samples, std::uint64_t seed) const
{
    std::mt19937_64 random(seed);
    std::vector<SampleTransform> transforms(static_cast<std::size_t>(samples));
    for (auto& transform : transforms) {
        if (m_options.flip)
            transform.flip = random() & 1;
        if (m_options.translate > 0) {
            const std::uint64_t span = 2 * std::uint64_t(m_options.translate) + 1;
            transform.dx = int(random() % span) - m_options.translate;
            transform.dy = int(random() % span) - m_options.translate;
        }
        if (m_options.scaleCrop) {
            transform.scale = uniform(random, m_options.scaleMin, m_options.scaleMax);
            transform.cropX = uniform(random, 0.0, 1.0);
            transform.cropY = uniform(random, 0.0, 1.0);
        }
        if (m_options.cropHeight > 0) {
            transform.windowX = uniform(random, 0.0, 1.0);
            transform.windowY = uniform(random, 0.0, 1.0);
        }
        // Drawn last, so a run without jitter draws exactly what it drew before jitter existed.
        if (m_options.colorJitter > 0) {
            const double low = std::max(0.0, 1.0 - m_options.colorJitter), high = 1.0 + m_options.colorJitter;
            transform.brightness = uniform(random, low, high);
            transform.contrast = uniform(random, low, high);
            transform.saturation = uniform(random, low, high);
        }
    }
    return transforms;
}

std::pair<torch::Tensor, torch::Tensor> Augmenter::apply(const torch::Tensor& images, const torch::Tensor& labels,
                                                         const std::vector<SampleTransform>& transforms) const
{
    TORCH_CHECK(images.size(0) == std::int64_t(transforms.size()), "Augmenter: one transform per sample");
    const std::int64_t height = images.size(2), width = images.size(3);
    const bool cropping = m_options.cropHeight > 0;
    const std::int64_t windowHeight = cropping ? std::min<std::int64_t>(m_options.cropHeight, height) : height;
    const std::int64_t windowWidth = cropping ? std::min<std::int64_t>(m_options.cropWidth, width) : width;
    std::vector<torch::Tensor> outImages, outLabels;
    for (std::size_t i = 0; i < transforms.size(); ++i) {
        const auto& t = transforms[i];
        auto image = images[std::int64_t(i)];
        auto label = labels[std::int64_t(i)];
        // Before any geometric step, so the black pixels shifted or padded in stay black.
        if (m_options.colorJitter > 0)
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
            // Labels are ids, never blended: nearest neighbour, through float because interpolate needs it.
            label = F::interpolate(label.unsqueeze(0).unsqueeze(0).to(torch::kFloat),
                                   F::InterpolateFuncOptions().size(std::vector<std::int64_t>{h, w}).mode(torch::kNearestExact))
                        .squeeze(0)
                        .squeeze(0)
                        .to(labels.scalar_type());
            // Without a training crop the sample goes back to the batch's size. With one, the scaled
            // image stays whole and the window is cut from it, padded only up to the window: a
            // zoomed-out sample (0.5x) is seen whole, not as a window that is mostly padding.
            const std::int64_t fitHeight = cropping ? std::max(h, windowHeight) : height;
            const std::int64_t fitWidth = cropping ? std::max(w, windowWidth) : width;
            image = fitTo(image, fitHeight, fitWidth, t.cropY, t.cropX, 0.0);
            label = fitTo(label, fitHeight, fitWidth, t.cropY, t.cropX, kUnlabelledFill);
        }
        if (t.flip) {
            image = image.flip({-1});
            label = label.flip({-1});
        }
        if (t.dx != 0 || t.dy != 0) {
            image = shift(image, t.dy, t.dx, 0.0);
            label = shift(label, t.dy, t.dx, kUnlabelledFill);
        }
        if (cropping) {
            image = window(image, t, windowHeight, windowWidth);
            label = window(label, t, windowHeight, windowWidth);
        }
        outImages.push_back(image);
        outLabels.push_back(label);
    }
    return {torch::stack(outImages), torch::stack(outLabels)};
}

torch::Tensor Augmenter::jitterColour(const torch::Tensor& image, const SampleTransform& transform)
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

torch::Tensor Augmenter::window(const torch::Tensor& tensor, const SampleTransform& transform, std::int64_t height,
                                std::int64_t width)
{
    auto cut = [](const torch::Tensor& t, std::int64_t dim, std::int64_t size, double where) {
        const std::int64_t full = t.size(dim);
        if (size >= full)
            return t;
        const std::int64_t offset = std::min(full - size, std::int64_t(std::floor(where * double(full - size + 1))));
        return t.narrow(dim, offset, size);
    };
    return cut(cut(tensor, -2, height, transform.windowY), -1, width, transform.windowX);
}

torch::Tensor Augmenter::shift(const torch::Tensor& tensor, int dy, int dx, double fill)
{
    const std::int64_t height = tensor.size(-2), width = tensor.size(-1);
    const std::int64_t padY = std::abs(dy), padX = std::abs(dx);
    auto padded = torch::constant_pad_nd(tensor, {padX, padX, padY, padY}, fill);
    // out[y] = in[y - dy], i.e. padded[y - dy + padY].
    return padded.narrow(-2, padY - dy, height).narrow(-1, padX - dx, width);
}

torch::Tensor Augmenter::fitTo(const torch::Tensor& tensor, std::int64_t height, std::int64_t width, double cropY,
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

}  // namespace segstudio::engine
