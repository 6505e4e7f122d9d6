#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace segstudio::engine {
inline namespace input {

struct AugmentOptions {
    bool flip = true;
    int translate = 10;
    bool scaleCrop = false;
    double scaleMin = 0.75;
    double scaleMax = 1.25;
    int cropHeight = 0;  // 0 = keep the whole image
    int cropWidth = 0;
    // Photometric jitter: brightness, contrast and saturation each scaled by a factor drawn from
    // [1 - colorJitter, 1 + colorJitter] (torchvision's ColorJitter); 0 = off.
    double colorJitter = 0.0;
    // Class-uniform crops: this share of the training crops holds a pixel of a class drawn
    // uniformly from those in its sample, so rare classes (poles, signs, people) are seen as often
    // as roads; the rest are placed at random. Needs a crop; 0 = off.
    double classCrops = 0.0;
};

// The random transform of one sample; drawn on the host so it is reproducible, applied on the device.
struct SampleTransform {
    bool flip = false;
    int dx = 0;  // content moves right by dx (negative: left)
    int dy = 0;  // content moves down by dy
    double scale = 1.0;
    double cropX = 0.5;  // where, in [0, 1], the scaled image is cropped or placed
    double cropY = 0.5;
    double windowX = 0.0;  // where, in [0, 1], the training crop is taken
    double windowY = 0.0;
    double brightness = 1.0;  // photometric factors, 1 = unchanged
    double contrast = 1.0;
    double saturation = 1.0;
    // Class-uniform crops: the crop holds this pixel of the input sample (column, row), placed
    // in the middle half of the window at (windowX, windowY).
    bool anchored = false;
    double anchorX = 0.0;
    double anchorY = 0.0;
};

// Training augmentation on the training device: optional photometric jitter (brightness, contrast,
// saturation, on the image only), random left/right reflection, random X/Y translation, optional
// random scale, then an optional random crop of a fixed size (a window no larger than the image).
// Without the crop a scaled sample is cropped or padded back to the batch's size; with it, the
// window is cut from the whole scaled image (padded only if smaller).
// Guarantees: image and label of a sample always get the same geometric transform, so every label
// pixel stays on its image pixel; pixels shifted in are black in the image and unlabelled (255) in
// the label; the output has the input's size, or the crop's (each side at most the input's).
class Augmenter {
public:
    explicit Augmenter(AugmentOptions options);

    // Deterministic in (seed): a resumed run redraws exactly the same transforms.
    std::vector<SampleTransform> draw(std::int64_t samples, std::uint64_t seed) const;
    // The same, and with class-uniform crops on, the anchors of a share of them drawn from the
    // samples' labels (N x H x W uint8 on the host); deterministic in (labels, seed).
    std::vector<SampleTransform> draw(const torch::Tensor& hostLabels, std::uint64_t seed) const;

    // images: N x 3 x H x W float; labels: N x H x W (any integer type), on the same device.
    // Returns transformed copies. Batched: a fixed handful of tensor operations whatever the batch
    // size (each sample's flip, shift, crop and scale compose into per-sample row and column maps
    // built on the host, gathered on the device). A sample's result does not depend on the rest of its
    // batch (with colour jitter, up to the rounding of its mean grey).
    std::pair<torch::Tensor, torch::Tensor> apply(const torch::Tensor& images, const torch::Tensor& labels,
                                                  const std::vector<SampleTransform>& transforms) const;

    // The crop's size from now on (progressive crops, CropSchedule); the window's position is
    // drawn as a fraction, so the same draws serve any size. Both 0: whole images.
    void setCrop(int height, int width)
    {
        m_options.cropHeight = height;
        m_options.cropWidth = width;
    }

    bool enabled() const
    {
        return m_options.flip || m_options.translate > 0 || m_options.scaleCrop || m_options.cropHeight > 0 ||
               m_options.colorJitter > 0;
    }

private:
    // A pixel (column, row) of a class drawn uniformly from the labelled classes of one H x W
    // label, or false where none is labelled.
    static bool drawAnchor(const std::uint8_t* label, std::int64_t height, std::int64_t width, std::uint64_t seed,
                           double& x, double& y);

    AugmentOptions m_options;
};

}  // namespace input
}  // namespace segstudio::engine
