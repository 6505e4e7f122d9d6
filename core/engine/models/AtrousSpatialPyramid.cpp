#include "AtrousSpatialPyramid.h"

namespace segstudio::engine {
inline namespace models {

namespace F = torch::nn::functional;

namespace {

void appendNormRelu(torch::nn::Sequential& into, int channels)
{
    into->push_back(torch::nn::BatchNorm2d(channels));
    into->push_back(torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true)));
}

}  // namespace

torch::nn::Sequential pointwiseConv(int in, int out, ConvLayout& layout, std::int64_t outputStride)
{
    torch::nn::Sequential block;
    block->push_back(layout.conv(in, out, 1, outputStride));
    appendNormRelu(block, out);
    return block;
}

torch::nn::Sequential separableConv(int in, int out, int dilation, ConvLayout& layout, std::int64_t outputStride)
{
    torch::nn::Sequential block;
    block->push_back(layout.conv(in, in, 3, outputStride, 1, dilation, /*groups=*/in));
    appendNormRelu(block, in);
    block->push_back(layout.conv(in, out, 1, outputStride));
    appendNormRelu(block, out);
    return block;
}

AtrousSpatialPyramidImpl::AtrousSpatialPyramidImpl(int inChannels, int channels, const std::vector<int>& rates,
                                                   ConvLayout& layout, std::int64_t outputStride)
{
    m_branches.push_back(register_module("branch0", pointwiseConv(inChannels, channels, layout, outputStride)));
    for (std::size_t i = 0; i < rates.size(); ++i)
        m_branches.push_back(register_module("branch" + std::to_string(i + 1),
                                             separableConv(inChannels, channels, rates[i], layout, outputStride)));
    // The pooled branch runs on a 1x1 map: its FLOPs are negligible and not recorded.
    m_pooling = register_module("pooling", torch::nn::Conv2d(torch::nn::Conv2dOptions(inChannels, channels, 1)));
    const int concatenated = int(m_branches.size() + 1) * channels;
    m_fuse = register_module("fuse", pointwiseConv(concatenated, channels, layout, outputStride));
}

torch::Tensor AtrousSpatialPyramidImpl::forward(const torch::Tensor& features)
{
    std::vector<torch::Tensor> outputs;
    for (auto& branch : m_branches)
        outputs.push_back(branch->forward(features));
    auto pooled = torch::relu(m_pooling->forward(F::adaptive_avg_pool2d(features, F::AdaptiveAvgPool2dFuncOptions(1))));
    outputs.push_back(pooled.expand({-1, -1, features.size(2), features.size(3)}));
    return m_fuse->forward(torch::cat(outputs, 1));
}

GraphValue AtrousSpatialPyramidImpl::writeGraph(GraphWriter& writer, const GraphValue& features)
{
    std::vector<GraphValue> outputs;
    for (auto& branch : m_branches)
        outputs.push_back(writer.sequential(features, *branch));
    const auto pooled = writer.relu(writer.conv(writer.globalAveragePool(features), *m_pooling));
    outputs.push_back(writer.repeatPixel(pooled, features.value.size(2), features.value.size(3)));
    return writer.sequential(writer.concatChannels(outputs), *m_fuse);
}

}  // namespace models
}  // namespace segstudio::engine
