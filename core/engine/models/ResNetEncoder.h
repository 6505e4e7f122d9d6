#pragma once

#include "ConvLayout.h"
#include "SegmentationEncoder.h"

#include <vector>

namespace segstudio::engine {
inline namespace models {

struct ResNetOptions {
    std::vector<int> blocks = {2, 2, 2, 2};  // basic blocks per stage: ResNet-18 ({3, 4, 6, 3}: 34)
    int outputStride = 32;                   // 32, or 16 with the last stage dilated
    int lastStageChannels = 512;             // ResNet's 512; 256 keeps a quarter of that stage's cost
};

// ResNet of basic blocks (He et al. 2016) with a deep stem of three 3x3 convs (ResNet-C, Bag of
// Tricks) that reaches stride 4 by a strided conv instead of a max pool: the whole encoder is
// dense 3x3 convs, batch norm and ReLU, which oneDNN runs as bf16 matrix tiles on CPUs with
// AMX/AVX512-BF16 at several times its fp32 rate, where MobileNetV2's depthwise convs stay
// memory-bound. Stages of 64, 128, 256, 512 channels at strides 4, 8, 16, 32. Each block's last
// batch norm starts at zero, so a block starts as its shortcut (trains faster from scratch).
// lowLevel: the first stage's output; deep: the last stage's; at output stride 32, middle: the
// third stage's (256 channels, stride 16).
class ResNetEncoderImpl : public SegmentationEncoderImpl {
public:
    // Records its convolutions (with their output strides) into layout, for FLOP counts.
    ResNetEncoderImpl(ResNetOptions options, ConvLayout& layout);

    int lowLevelChannels() const override { return 64; }
    int deepChannels() const override { return m_deepChannels; }

private:
    int m_deepChannels;
};

TORCH_MODULE(ResNetEncoder);

}  // namespace models
}  // namespace segstudio::engine
