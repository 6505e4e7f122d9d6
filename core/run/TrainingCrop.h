#pragma once

namespace segstudio::run {

// The random window a training step cuts from each packed image, chosen as a share of the
// image's sides: the engine's default (TrainConfig::cropShare, `train --crop-share`) and the
// Train dialog's proposal follow this one rule, so the GUI shows the crop the engine trains on.
struct TrainingCrop {
    // 40 % of each side: on CamVid's 360x480 packs 144 x 192 crops, the measured best of 30
    // CPU-minutes (docs/BENCHMARKS.md, "Crops by default").
    static constexpr double kDefaultShare = 0.4;
    // Never smaller (short x long side): 88 x 120 crops transferred badly to whole images.
    static constexpr int kSmallestShortSide = 144;
    static constexpr int kSmallestLongSide = 192;

    int height = 0;  // 0 x 0: whole images
    int width = 0;

    bool isWholeImage() const { return height <= 0 || width <= 0; }

    // The crop for images of imageHeight x imageWidth: `share` of each side, at least the
    // smallest crop, at most the image. Whole images for a share of 0 (or 1), and when the crop
    // would be most (80 %) of a side: such a crop buys little speed and loses context.
    static TrainingCrop ofShare(int imageHeight, int imageWidth, double share);
};

}  // namespace segstudio::run
