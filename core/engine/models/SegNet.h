#pragma once

#include "SegmentationModel.h"

#include <vector>

namespace segstudio::engine {
inline namespace models {

struct SegNetOptions {
    int classes = 11;
    int kernel = 3;
    // Output channels of the convolutions of each encoder stage; each stage ends in a 2x2 max-pool
    // whose indices the mirrored decoder stage uses to unpool.
    std::vector<std::vector<int>> stages;
    // 1: a 1x1 classifier after the full decoder (SegNet-Basic). 3: the last decoder conv itself
    // maps to the classes (SegNet's conv1_1_D), as in the reference VGG-16 SegNet.
    int classifierKernel = 1;

    static SegNetOptions vgg16(int classes);   // SegNet: 13 convs in 5 stages (VGG-16 features)
    static SegNetOptions basic(int classes);   // SegNet-Basic: 4 stages of one 7x7 conv, 64 channels
    static SegNetOptions tiny(int classes);    // a fast 3x3 variant for CPUs and quick experiments
};

// SegNet (Badrinarayanan et al.): encoder of conv+BN+ReLU stages with index-keeping max-pools, a
// mirrored decoder that max-unpools with those indices, and a classifier conv. He-initialised.
// Any input size works: the input is zero-padded (bottom/right) to a multiple of 2^stages, which
// after normalisation is the mean colour, and the logits are cropped back.
class SegNetImpl : public SegmentationModelImpl {
public:
    explicit SegNetImpl(SegNetOptions options);

    torch::Tensor forward(torch::Tensor images) override;
    GraphValue writeGraph(GraphWriter& writer, const GraphValue& images) override;
    int classes() const override { return m_options.classes; }
    double forwardFlops(std::int64_t height, std::int64_t width) const override;

    std::int64_t sizeDivisor() const { return std::int64_t(1) << m_options.stages.size(); }
    const SegNetOptions& options() const { return m_options; }
    // The encoder's convolutions in order, for loading pretrained VGG-16 weights.
    std::vector<torch::nn::Conv2d> encoderConvs() const { return m_encoderConvs; }

private:
    torch::nn::Sequential makeStage(int inChannels, const std::vector<int>& outChannels, bool encoder);
    void initialiseWeights();

    SegNetOptions m_options;
    std::vector<torch::nn::Sequential> m_encoders;
    std::vector<torch::nn::Sequential> m_decoders;  // m_decoders[s] mirrors m_encoders[s]
    std::vector<torch::nn::Conv2d> m_encoderConvs;
    torch::nn::Conv2d m_classifier{nullptr};
};

TORCH_MODULE(SegNet);

}  // namespace models
}  // namespace segstudio::engine
