#include "Augmenter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace segstudio::engine {

namespace {

constexpr int kUnlabelled = 255;
constexpr double kUnlabelledFill = kUnlabelled;

double uniform(std::mt19937_64& random, double low, double high)
{
    // Not std::uniform_real_distribution: its output differs between standard libraries.
    return low + (high - low) * double(random() >> 11) * (1.0 / 9007199254740992.0);
}

// How far fitTo moves content along one axis from size to target: left/up by the cut-off offset,
// right/down by the padding before it.
double fitShift(std::int64_t size, std::int64_t target, double where)
{
    const double offset = std::floor(where * double(std::abs(size - target)));
    if (size > target)
        return -std::min(offset, double(size - target));
    return size < target ? offset : 0.0;
}

// The source row (or column) of each of `target` pixels resized from `size`, nearest neighbour by
// pixel centres: min(floor((i + 0.5) * size / target), size - 1), what torch's nearest-exact
// computes. Labels are ids, never blended, and indexing keeps them exact in their own type.
// (LibTorch 1.13's F::interpolate warns about align_corners on every call in nearest-exact mode,
// which flooded a scaled run's log: one line per sample.)
torch::Tensor nearestSources(std::int64_t size, std::int64_t target, const torch::Device& device)
{
    const auto centres = (torch::arange(target, torch::kFloat64) + 0.5) * (double(size) / double(target));
    return centres.floor_().clamp_max_(double(size - 1)).to(torch::kLong).to(device);
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

std::vector<SampleTransform> Augmenter::draw(const torch::Tensor& hostLabels, std::uint64_t seed) const
{
    auto transforms = draw(hostLabels.size(0), seed);
    if (m_options.classCrops <= 0 || m_options.cropHeight <= 0)
        return transforms;
    TORCH_CHECK(hostLabels.device().is_cpu() && hostLabels.scalar_type() == torch::kUInt8 && hostLabels.dim() == 3,
                "Augmenter: class-uniform crops need the N x H x W uint8 labels on the host");
    const auto labels = hostLabels.contiguous();
    const std::int64_t height = labels.size(1), width = labels.size(2);
    // Its own stream, so the transforms above are exactly those of a run without anchors.
    std::mt19937_64 random(seed ^ 0x9e3779b97f4a7c15ULL);
    for (std::size_t i = 0; i < transforms.size(); ++i) {
        const bool anchorThis = uniform(random, 0.0, 1.0) < m_options.classCrops;
        const std::uint64_t anchorSeed = random();
        auto& t = transforms[i];
        if (anchorThis)
            t.anchored = drawAnchor(labels.data_ptr<std::uint8_t>() + std::int64_t(i) * height * width, height, width,
                                    anchorSeed, t.anchorX, t.anchorY);
    }
    return transforms;
}

bool Augmenter::drawAnchor(const std::uint8_t* label, std::int64_t height, std::int64_t width, std::uint64_t seed,
                           double& x, double& y)
{
    const std::int64_t pixels = height * width;
    std::array<std::int64_t, 256> counts{};
    for (std::int64_t p = 0; p < pixels; ++p)
        ++counts[label[p]];
    std::vector<int> present;
    for (int c = 0; c < 256; ++c)
        if (c != kUnlabelled && counts[std::size_t(c)] > 0)
            present.push_back(c);
    if (present.empty())
        return false;
    std::mt19937_64 random(seed);
    const int chosen = present[std::size_t(random() % present.size())];
    std::int64_t skip = std::int64_t(random() % std::uint64_t(counts[std::size_t(chosen)]));
    for (std::int64_t p = 0; p < pixels; ++p)
        if (label[p] == chosen && skip-- == 0) {
            x = double(p % width);
            y = double(p / width);
            return true;
        }
    return false;  // not reached: the class has counts[chosen] pixels
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
        // The anchor pixel, followed through each geometric step (pixel centres).
        double anchorX = t.anchorX, anchorY = t.anchorY;
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

std::pair<std::int64_t, std::int64_t> Augmenter::windowOrigin(std::int64_t fullHeight, std::int64_t fullWidth,
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
