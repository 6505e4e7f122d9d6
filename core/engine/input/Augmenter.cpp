#include "Augmenter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <utility>

namespace segstudio::engine {
inline namespace input {

namespace {

constexpr int kUnlabelled = 255;

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

// The source row (or column) of output pixel `index` of `target` pixels resized from `size`,
// nearest neighbour by pixel centres: min(floor((i + 0.5) * size / target), size - 1), what
// torch's nearest-exact computes (in double, as it does). Labels are ids, never blended, and
// indexing keeps them exact in their own type. (LibTorch 1.13's F::interpolate warns about
// align_corners on every call in nearest-exact mode.)
std::int64_t nearestSource(std::int64_t size, std::int64_t target, std::int64_t index)
{
    const double centre = (double(index) + 0.5) * (double(size) / double(target));
    return std::int64_t(std::min(std::floor(centre), double(size - 1)));
}

// The arithmetic of the source coordinate in LibTorch's bilinear resize (align_corners=false),
// so that the batched resize blends with its weights: the CPU kernel of LibTorch 1.x computes it
// in double, the kernels of 2.x in float.
#if TORCH_VERSION_MAJOR >= 2
using SourceCoordinate = float;
#else
using SourceCoordinate = double;
#endif

// Where the height x width training crop starts in a full x full sample: at the transform's
// window position, or around its anchor (anchorX/Y: where the anchor is now).
std::pair<std::int64_t, std::int64_t> windowOrigin(std::int64_t fullHeight, std::int64_t fullWidth,
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
    return {origin(fullHeight, height, transform.windowY, anchorY),
            origin(fullWidth, width, transform.windowX, anchorX)};
}

// One sample's geometry along one axis (rows or columns), in the order the steps act: the scale
// from `input` to `scaled` pixels, fitTo (`scaled` to `fitted`, the content moved by `fitShift`),
// the flip, the shift, then the window from `origin`.
struct AxisSteps {
    std::int64_t input = 0;
    bool scaling = false;
    std::int64_t scaled = 0;
    std::int64_t fitted = 0;
    std::int64_t fitShift = 0;
    bool flip = false;
    std::int64_t shift = 0;
    std::int64_t origin = 0;
};

// Where each of the `count` output pixels of one sample along one axis comes from. Each array
// has `count` entries to fill: the nearest source pixel (labels, and images without a scale); the
// two source pixels and weights of the bilinear resize (images; without a scale both are the
// nearest pixel, weights 1 and 0); 1 where the pixel has no source (shifted or padded in: the
// indices are then 0, any valid one, and the fill replaces what they gather).
struct AxisMap {
    std::int64_t* nearest;
    std::int64_t* tap0;
    std::int64_t* tap1;
    float* weight0;
    float* weight1;
    std::int64_t* outside;
};

// Fills `map` (the taps and weights only when `taps`); true if some pixel has no source.
bool mapAxis(const AxisSteps& steps, std::int64_t count, bool taps, const AxisMap& map)
{
    // As area_pixel_compute_scale: float(input) / output.
    const float ratio = float(steps.input) / float(steps.scaled);
    bool anyOutside = false;
    for (std::int64_t i = 0; i < count; ++i) {
        // Backwards through the steps: the window, the shift, the flip, fitTo.
        std::int64_t p = steps.origin + i - steps.shift;
        bool inside = p >= 0 && p < steps.fitted;
        if (steps.flip)
            p = steps.fitted - 1 - p;
        p -= steps.fitShift;
        inside = inside && p >= 0 && p < steps.scaled;
        if (!inside)
            p = 0;
        anyOutside = anyOutside || !inside;
        map.outside[i] = inside ? 0 : 1;
        map.nearest[i] = steps.scaling ? nearestSource(steps.input, steps.scaled, p) : p;
        if (!taps)
            continue;
        std::int64_t tap0 = p, tap1 = p;
        float weight1 = 0.0f;
        if (steps.scaling && steps.scaled != steps.input) {
            // compute_source_index_and_lambda of LibTorch's UpSample.h (equal sizes: a copy), with
            // ratio * (p + 0.5) - 0.5 as one multiply-add, as its FMA builds (x86 AVX2, CUDA) do.
            const SourceCoordinate real =
                std::max(std::fma(SourceCoordinate(ratio), SourceCoordinate(p) + SourceCoordinate(0.5),
                                  SourceCoordinate(-0.5)),
                         SourceCoordinate(0));
            tap0 = std::min(std::int64_t(real), steps.input - 1);
            tap1 = tap0 + (tap0 < steps.input - 1 ? 1 : 0);
            weight1 = float(std::clamp(real - SourceCoordinate(tap0), SourceCoordinate(0), SourceCoordinate(1)));
        }
        map.tap0[i] = tap0;
        map.tap1[i] = tap1;
        map.weight0[i] = 1.0f - weight1;
        map.weight1[i] = weight1;
    }
    return anyOutside;
}

// images: N x 3 x H x W in 0..255; factors: N x 1 x 1 x 1 each, in torchvision's order; the
// result clamped to 0..255. The operations of the per-sample formula, on the whole batch.
torch::Tensor jitterColour(const torch::Tensor& images, const torch::Tensor& brightness, const torch::Tensor& contrast,
                           const torch::Tensor& saturation)
{
    // ITU-R 601 luma, as torchvision's rgb_to_grayscale.
    const auto grey = [](const torch::Tensor& rgb) {
        return (0.299 * rgb.select(1, 0) + 0.587 * rgb.select(1, 1) + 0.114 * rgb.select(1, 2)).unsqueeze(1);
    };
    auto out = (images * brightness).clamp(0.0, 255.0);
    const auto mean = grey(out).mean({1, 2, 3}, /*keepdim=*/true);
    out = (mean + contrast * (out - mean)).clamp(0.0, 255.0);
    const auto luma = grey(out);
    return (luma + saturation * (out - luma)).clamp(0.0, 255.0);
}

// Where each of Augmenter::apply's tables lies in the one int64 and the one float buffer that go
// to the device together: the taps and weights only where some sample is scaled, the jitter
// factors only with jitter.
struct TableLayout {
    std::int64_t samples = 0, channels = 0, rows = 0, columns = 0;  // rows x columns: the output's size
    bool scaling = false, jitter = false;
    std::int64_t intCount = 0, floatCount = 0;
    std::int64_t sampleAt = 0, channelAt = 0, rowAt = 0, columnAt = 0, rowOutsideAt = 0, columnOutsideAt = 0;
    std::int64_t rowTap0At = 0, rowTap1At = 0, columnTap0At = 0, columnTap1At = 0;
    std::int64_t brightnessAt = 0, contrastAt = 0, saturationAt = 0;
    std::int64_t rowWeight0At = 0, rowWeight1At = 0, columnWeight0At = 0, columnWeight1At = 0;
};

TableLayout tableLayout(std::int64_t samples, std::int64_t channels, std::int64_t rows, std::int64_t columns, bool scaling,
                        bool jitter)
{
    TableLayout l;
    l.samples = samples;
    l.channels = channels;
    l.rows = rows;
    l.columns = columns;
    l.scaling = scaling;
    l.jitter = jitter;
    const auto takeInts = [&l](std::int64_t count) { return std::exchange(l.intCount, l.intCount + count); };
    const auto takeFloats = [&l](std::int64_t count) { return std::exchange(l.floatCount, l.floatCount + count); };
    l.sampleAt = takeInts(samples);
    l.channelAt = takeInts(channels);
    l.rowAt = takeInts(samples * rows);
    l.columnAt = takeInts(samples * columns);
    l.rowOutsideAt = takeInts(samples * rows);
    l.columnOutsideAt = takeInts(samples * columns);
    const std::int64_t tapSize = scaling ? 1 : 0;
    l.rowTap0At = takeInts(tapSize * samples * rows);
    l.rowTap1At = takeInts(tapSize * samples * rows);
    l.columnTap0At = takeInts(tapSize * samples * columns);
    l.columnTap1At = takeInts(tapSize * samples * columns);
    const std::int64_t jitterSize = jitter ? samples : 0;
    l.brightnessAt = takeFloats(jitterSize);
    l.contrastAt = takeFloats(jitterSize);
    l.saturationAt = takeFloats(jitterSize);
    l.rowWeight0At = takeFloats(tapSize * samples * rows);
    l.rowWeight1At = takeFloats(tapSize * samples * rows);
    l.columnWeight0At = takeFloats(tapSize * samples * columns);
    l.columnWeight1At = takeFloats(tapSize * samples * columns);
    return l;
}

// The batch's images before any step, and the window cut from them.
struct BatchGeometry {
    std::int64_t height = 0, width = 0;
    std::int64_t windowHeight = 0, windowWidth = 0;
    bool cropping = false;
};

// Sample i's entries of every table, drawn on the host; true where some output pixel has no
// source (shifted or padded in).
bool mapSample(const SampleTransform& t, std::int64_t i, const TableLayout& l, const BatchGeometry& g, std::int64_t* ints,
               float* floats)
{
    const std::int64_t height = g.height, width = g.width, windowHeight = g.windowHeight, windowWidth = g.windowWidth;
    const std::int64_t rows = l.rows, columns = l.columns;
    const bool cropping = g.cropping, scaling = l.scaling, jitter = l.jitter;
    ints[l.sampleAt + i] = i;
    if (jitter) {
        floats[l.brightnessAt + i] = float(t.brightness);
        floats[l.contrastAt + i] = float(t.contrast);
        floats[l.saturationAt + i] = float(t.saturation);
    }
    AxisSteps y, x;
    y.input = y.scaled = y.fitted = height;
    x.input = x.scaled = x.fitted = width;
    x.flip = t.flip;
    y.shift = t.dy;
    x.shift = t.dx;
    // The anchor pixel, followed through each geometric step (pixel centres), in the
    // arithmetic of the per-sample steps, so the windows are exactly theirs.
    double anchorX = t.anchorX, anchorY = t.anchorY;
    if (t.scale != 1.0) {
        y.scaling = x.scaling = true;
        y.scaled = std::max<std::int64_t>(1, std::llround(double(height) * t.scale));
        x.scaled = std::max<std::int64_t>(1, std::llround(double(width) * t.scale));
        // Without a training crop the sample goes back to the batch's size. With one, the scaled
        // image stays whole and the window is cut from it, padded only up to the window: a
        // zoomed-out sample (0.5x) is seen whole, not as a window that is mostly padding.
        y.fitted = cropping ? std::max(y.scaled, windowHeight) : height;
        x.fitted = cropping ? std::max(x.scaled, windowWidth) : width;
        const double shiftY = fitShift(y.scaled, y.fitted, t.cropY), shiftX = fitShift(x.scaled, x.fitted, t.cropX);
        y.fitShift = std::int64_t(shiftY);
        x.fitShift = std::int64_t(shiftX);
        anchorX = (anchorX + 0.5) * double(x.scaled) / double(width) - 0.5 + shiftX;
        anchorY = (anchorY + 0.5) * double(y.scaled) / double(height) - 0.5 + shiftY;
    }
    if (t.flip)
        anchorX = double(x.fitted - 1) - anchorX;
    if (t.dx != 0 || t.dy != 0) {
        anchorX += t.dx;
        anchorY += t.dy;
    }
    if (cropping)
        std::tie(y.origin, x.origin) =
            windowOrigin(y.fitted, x.fitted, t, windowHeight, windowWidth, anchorY, anchorX);
    // Sample i's entries of each table (the taps' tables are empty without a scale, and unused).
    const auto axisMap = [&](std::int64_t count, std::int64_t at, std::int64_t outsideAt, std::int64_t tap0At,
                             std::int64_t tap1At, std::int64_t weight0At, std::int64_t weight1At) {
        const std::int64_t entry = i * count;
        if (!scaling)
            return AxisMap{ints + at + entry, nullptr, nullptr, nullptr, nullptr, ints + outsideAt + entry};
        return AxisMap{ints + at + entry,         ints + tap0At + entry,     ints + tap1At + entry,
                       floats + weight0At + entry, floats + weight1At + entry, ints + outsideAt + entry};
    };
    const bool outsideY = mapAxis(y, rows, scaling, axisMap(rows, l.rowAt, l.rowOutsideAt, l.rowTap0At, l.rowTap1At,
                                                         l.rowWeight0At, l.rowWeight1At));
    const bool outsideX = mapAxis(x, columns, scaling, axisMap(columns, l.columnAt, l.columnOutsideAt, l.columnTap0At,
                                                            l.columnTap1At, l.columnWeight0At, l.columnWeight1At));
    return outsideY || outsideX;
}

// The tables applied on the device: a fixed handful of batched gathers (and blends, fills).
std::pair<torch::Tensor, torch::Tensor> gatherOnDevice(const torch::Tensor& images, const torch::Tensor& labels,
                                                       const TableLayout& l, const torch::Tensor& deviceInts,
                                                       const torch::Tensor& deviceFloats, bool anyOutside)
{
    const std::int64_t samples = l.samples, channels = l.channels, rows = l.rows, columns = l.columns;
    const bool scaling = l.scaling, jitter = l.jitter;
    const auto intTable = [&](std::int64_t at, std::int64_t count) { return deviceInts.narrow(0, at, count); };
    const auto floatTable = [&](std::int64_t at, std::int64_t count) { return deviceFloats.narrow(0, at, count); };

    const auto sample = intTable(l.sampleAt, samples);
    const auto rowSource = intTable(l.rowAt, samples * rows);
    const auto columnSource = intTable(l.columnAt, samples * columns);
    auto outLabels = labels.index({sample.view({samples, 1, 1}), rowSource.view({samples, rows, 1}),
                                   columnSource.view({samples, 1, columns})});

    // Before any geometric step, so the black pixels shifted or padded in stay black.
    auto source = images;
    if (jitter) {
        const auto factor = [&](std::int64_t at) { return floatTable(at, samples).view({samples, 1, 1, 1}); };
        source = jitterColour(images, factor(l.brightnessAt), factor(l.contrastAt), factor(l.saturationAt));
    }
    // Sample n, every channel, rows[n] x columns[n]: one gather, N x 3 x rows x columns.
    const auto gather = [&](const torch::Tensor& rowIndex, const torch::Tensor& columnIndex) {
        return source.index({sample.view({samples, 1, 1, 1}), intTable(l.channelAt, channels).view({1, channels, 1, 1}),
                             rowIndex.view({samples, 1, rows, 1}), columnIndex.view({samples, 1, 1, columns})});
    };
    torch::Tensor outImages;
    if (!scaling) {
        outImages = gather(rowSource, columnSource);
    } else {
        const auto rowTap0 = intTable(l.rowTap0At, samples * rows), rowTap1 = intTable(l.rowTap1At, samples * rows);
        const auto columnTap0 = intTable(l.columnTap0At, samples * columns);
        const auto columnTap1 = intTable(l.columnTap1At, samples * columns);
        const auto rowWeight = [&](std::int64_t at) {
            return floatTable(at, samples * rows).view({samples, 1, rows, 1});
        };
        const auto columnWeight = [&](std::int64_t at) {
            return floatTable(at, samples * columns).view({samples, 1, 1, columns});
        };
        const auto column0 = columnWeight(l.columnWeight0At), column1 = columnWeight(l.columnWeight1At);
        // As upsample_bilinear2d blends: the two columns of each row, then the two rows; separate
        // multiplications and additions, so a sample's result does not depend on its batch. An
        // unscaled sample blends a pixel with itself at weights 1 and 0: exactly the pixel.
        auto top = gather(rowTap0, columnTap0).mul_(column0).add_(gather(rowTap0, columnTap1).mul_(column1));
        auto bottom = gather(rowTap1, columnTap0).mul_(column0).add_(gather(rowTap1, columnTap1).mul_(column1));
        outImages = top.mul_(rowWeight(l.rowWeight0At)).add_(bottom.mul_(rowWeight(l.rowWeight1At)));
    }
    if (anyOutside) {
        const auto outside = intTable(l.rowOutsideAt, samples * rows)
                                 .view({samples, rows, 1})
                                 .logical_or(intTable(l.columnOutsideAt, samples * columns).view({samples, 1, columns}));
        outLabels.masked_fill_(outside, kUnlabelled);
        outImages.masked_fill_(outside.unsqueeze(1), 0.0);
    }
    return {outImages, outLabels};
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
    TORCH_CHECK(images.dim() == 4 && labels.dim() == 3 && labels.size(0) == images.size(0) &&
                    labels.size(1) == images.size(2) && labels.size(2) == images.size(3) &&
                    labels.device() == images.device(),
                "Augmenter: N x 3 x H x W images and N x H x W labels on one device");
    BatchGeometry geometry;
    geometry.height = images.size(2);
    geometry.width = images.size(3);
    geometry.cropping = m_options.cropHeight > 0;
    geometry.windowHeight = geometry.cropping ? std::min<std::int64_t>(m_options.cropHeight, geometry.height) : geometry.height;
    geometry.windowWidth = geometry.cropping ? std::min<std::int64_t>(m_options.cropWidth, geometry.width) : geometry.width;
    const bool scaling =
        std::any_of(transforms.begin(), transforms.end(), [](const auto& t) { return t.scale != 1.0; });

    // Every step is separable and integer but the image's resize: output pixel (y, x) of sample n
    // is source pixel (rows[n][y], columns[n][x]), or the fill where either has none; with a
    // scale, the image blends two rows and two columns. The maps are tiny (N x (rows + columns)):
    // drawn up here on the host, one copy per type to the device (asynchronous from pinned memory
    // on CUDA), then a fixed handful of batched operations, whatever the batch size.
    const TableLayout layout = tableLayout(images.size(0), images.size(1), geometry.windowHeight, geometry.windowWidth,
                                           scaling, m_options.colorJitter > 0);
    const auto device = images.device();
    const auto host = torch::TensorOptions().pinned_memory(device.is_cuda());
    auto hostInts = torch::empty({layout.intCount}, host.dtype(torch::kLong));
    auto hostFloats = torch::empty({layout.floatCount}, host.dtype(torch::kFloat));
    std::int64_t* ints = hostInts.data_ptr<std::int64_t>();
    float* floats = hostFloats.data_ptr<float>();
    for (std::int64_t c = 0; c < layout.channels; ++c)
        ints[layout.channelAt + c] = c;
    bool anyOutside = false;
    for (std::int64_t i = 0; i < layout.samples; ++i)
        anyOutside = mapSample(transforms[std::size_t(i)], i, layout, geometry, ints, floats) || anyOutside;
    const auto deviceInts = hostInts.to(device, torch::kLong, /*non_blocking=*/true);
    const auto deviceFloats =
        layout.floatCount > 0 ? hostFloats.to(device, images.scalar_type(), /*non_blocking=*/true) : torch::Tensor();
    return gatherOnDevice(images, labels, layout, deviceInts, deviceFloats, anyOutside);
}

}  // namespace input
}  // namespace segstudio::engine
