#pragma once

#include "ConvLayout.h"

#include "GraphWriter.h"

#include <torch/torch.h>

#include <vector>

namespace segstudio::engine {
inline namespace models {

// DeepLabV3's atrous spatial pyramid pooling, light: a 1x1 branch, one depthwise-separable 3x3
// branch per dilation rate, and an image-pooling branch, concatenated and fused by a 1x1 conv.
// The image-pooling branch has no batch norm: over a 1x1 map with one image per device it would
// have no statistics to normalise with.
// Guarantees: output channels x the input's height and width.
class AtrousSpatialPyramidImpl : public torch::nn::Module {
public:
    AtrousSpatialPyramidImpl(int inChannels, int channels, const std::vector<int>& rates, ConvLayout& layout,
                             std::int64_t outputStride);

    torch::Tensor forward(const torch::Tensor& features);
    GraphValue writeGraph(GraphWriter& writer, const GraphValue& features);

private:
    std::vector<torch::nn::Sequential> m_branches;
    torch::nn::Conv2d m_pooling{nullptr};
    torch::nn::Sequential m_fuse{nullptr};
};

TORCH_MODULE(AtrousSpatialPyramid);

// conv + batch norm + ReLU: 3x3 depthwise (dilated) then 1x1 pointwise, each normalised; shared by
// the pyramid and the DeepLabV3+ decoder.
torch::nn::Sequential separableConv(int in, int out, int dilation, ConvLayout& layout, std::int64_t outputStride);
torch::nn::Sequential pointwiseConv(int in, int out, ConvLayout& layout, std::int64_t outputStride);

}  // namespace models
}  // namespace segstudio::engine
