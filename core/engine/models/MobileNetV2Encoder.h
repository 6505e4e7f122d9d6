#pragma once

#include "ConvLayout.h"
#include "SegmentationEncoder.h"

#include <torch/torch.h>

namespace segstudio::engine {
inline namespace models {

struct MobileNetV2Options {
    // Channel multiplier; 1.0 is torchvision's mobilenet_v2, whose ImageNet weights then load.
    double width = 1.0;
    // 16: the layers past stride 16 are dilated instead of strided (DeepLabV3); 32: MobileNetV2's
    // own strides, which costs 35 % fewer FLOPs at the price of a coarser deep grid.
    int outputStride = 16;
};

// MobileNetV2's feature extractor (Sandler et al.): inverted residual blocks of 1x1 expansion,
// 3x3 depthwise and 1x1 linear projection, each with batch norm, ReLU6 between. At output stride
// 16 the layers after stride 16 are dilated instead of strided (as DeepLabV3 does), so the deep
// features keep a 23x30 grid at 360x480 instead of 12x15. Parameters and buffers are registered
// in the order of torchvision's `mobilenet_v2().features[0:18]`, so its ImageNet weights load by
// position (EncoderWeights); the final 1280-channel 1x1 conv is left out.
// lowLevel: after the 24-channel stage; deep: after the 320-channel stage.
class MobileNetV2EncoderImpl : public SegmentationEncoderImpl {
public:
    // Records its convolutions (with their output strides) into layout, for FLOP counts.
    MobileNetV2EncoderImpl(MobileNetV2Options options, ConvLayout& layout);

    int lowLevelChannels() const override { return m_lowLevelChannels; }
    int deepChannels() const override { return m_deepChannels; }

private:
    int m_lowLevelChannels = 0;
    int m_deepChannels = 0;
};

TORCH_MODULE(MobileNetV2Encoder);

}  // namespace models
}  // namespace segstudio::engine
