#pragma once

#include "AtrousSpatialPyramid.h"
#include "ConvLayout.h"
#include "MobileNetV2Encoder.h"
#include "ResNetEncoder.h"
#include "SegmentationModel.h"

#include <vector>

namespace segstudio::engine {
inline namespace models {

struct DeepLabV3PlusOptions {
    enum class Encoder { MobileNetV2, ResNet };
    int classes = 11;
    Encoder encoder = Encoder::MobileNetV2;
    double width = 1.0;              // the MobileNetV2 encoder's channel multiplier
    std::vector<int> resNetBlocks = {2, 2, 2, 2};  // the ResNet encoder's blocks per stage
    int resNetLastStageChannels = 512;              // and its last stage's width
    int pyramidChannels = 128;       // DeepLabV3+ uses 256; 128 halves the head's cost
    int encoderStride = 16;          // 16 or 32 (the encoder's output stride)
    std::vector<int> rates = {6, 12};  // at output stride 16 (a 23x30 grid at 360x480)
    int skipChannels = 32;           // the stride-4 features, reduced, as the paper's 48
    // A second skip for a stride-32 encoder: the stride-16 features, reduced to this many channels,
    // joined to the context upsampled x2 and fused by a separable 3x3 conv before the x4 to the
    // stride-4 skip (0 = none, the paper's decoder).
    int middleSkipChannels = 0;
    int decoderChannels = 96;
};

// DeepLabV3+ (Chen et al. 2018), by default with a MobileNetV2 encoder at output stride 16: the
// atrous pyramid gathers context over the whole image, the decoder upsamples it x4, joins the
// encoder's stride-4 features and refines with two separable 3x3 convs, and a 1x1 classifier's
// logits are upsampled bilinearly to the input size. Residual, depthwise-separable,
// batch-normalised throughout; 2.1 M parameters, 4.1 GFLOPs at 360x480 (with the ResNet-18
// encoder of ResNetEncoder.h: 11.6 M, 13.9). With middleSkipChannels, a stride-32 encoder's
// stride-16 features join the context on the way up as a second skip (as FPN-style decoders do),
// so objects a few cells wide at stride 32 (cars, people, signs) get a finer map before the x4 to
// stride 4. Any input size, no padding; channels-last and
// autocast friendly (convolutions, batch norm, bilinear interpolation only).
class DeepLabV3PlusImpl : public SegmentationModelImpl {
public:
    explicit DeepLabV3PlusImpl(DeepLabV3PlusOptions options);

    torch::Tensor forward(torch::Tensor images) override;
    GraphValue writeGraph(GraphWriter& writer, const GraphValue& images) override;
    int classes() const override { return m_options.classes; }
    double forwardFlops(std::int64_t height, std::int64_t width) const override { return m_layout.flops(height, width); }
    torch::nn::Module* encoder() override { return m_encoder.get(); }

private:
    DeepLabV3PlusOptions m_options;
    ConvLayout m_layout;
    std::shared_ptr<SegmentationEncoderImpl> m_encoder;
    AtrousSpatialPyramid m_pyramid{nullptr};
    torch::nn::Sequential m_skip{nullptr};
    torch::nn::Sequential m_middleSkip{nullptr};
    torch::nn::Sequential m_middleFuse{nullptr};
    torch::nn::Sequential m_refine{nullptr};
    torch::nn::Conv2d m_classifier{nullptr};
};

TORCH_MODULE(DeepLabV3Plus);

}  // namespace models
}  // namespace segstudio::engine
