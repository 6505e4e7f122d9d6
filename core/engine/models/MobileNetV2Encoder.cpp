#include "MobileNetV2Encoder.h"

#include "engine/runtime/EngineError.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

namespace segstudio::engine {
inline namespace models {

namespace {

// torchvision's _make_divisible: channel counts are multiples of 8, never below 90 % of the ask.
int divisible(double channels, int divisor = 8)
{
    int rounded = std::max(divisor, int(channels + divisor / 2.0) / divisor * divisor);
    if (rounded < 0.9 * channels)
        rounded += divisor;
    return rounded;
}

// conv + batch norm (+ ReLU6), torchvision's Conv2dNormActivation.
void appendConvNormRelu6(torch::nn::Sequential& into, torch::nn::Conv2d c, bool activation)
{
    const auto channels = c->options.out_channels();
    into->push_back(c);
    into->push_back(torch::nn::BatchNorm2d(channels));
    if (activation)
        into->push_back(torch::nn::ReLU6(torch::nn::ReLU6Options().inplace(true)));
}

// One inverted residual block; the identity shortcut when stride is 1 and the width is kept.
class InvertedResidualImpl : public torch::nn::Module, public GraphWritable {
public:
    InvertedResidualImpl(int in, int out, int stride, int dilation, int expansion, ConvLayout& layout,
                         std::int64_t& outputStride)
        : m_residual(stride == 1 && in == out)
    {
        const std::int64_t inStride = outputStride;
        outputStride *= stride;
        const int hidden = int(std::lround(double(in) * expansion));
        torch::nn::Sequential body;
        if (expansion != 1)
            appendConvNormRelu6(body, layout.conv(in, hidden, 1, inStride), true);
        appendConvNormRelu6(body, layout.conv(hidden, hidden, 3, outputStride, stride, dilation, hidden), true);
        appendConvNormRelu6(body, layout.conv(hidden, out, 1, outputStride), false);
        m_body = register_module("conv", body);
    }

    torch::Tensor forward(const torch::Tensor& x) { return m_residual ? x + m_body->forward(x) : m_body->forward(x); }

    GraphValue writeGraph(GraphWriter& writer, const GraphValue& x) override
    {
        const GraphValue body = writer.sequential(x, *m_body);
        return m_residual ? writer.add(x, body) : body;
    }

private:
    bool m_residual;
    torch::nn::Sequential m_body{nullptr};
};

TORCH_MODULE(InvertedResidual);

struct StageSetting {
    int expansion, channels, blocks, stride;
};

// MobileNetV2's table (t, c, n, s).
constexpr StageSetting kStages[] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                    {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};

}  // namespace

MobileNetV2EncoderImpl::MobileNetV2EncoderImpl(MobileNetV2Options options, ConvLayout& layout)
{
    if (options.outputStride != 16 && options.outputStride != 32)
        throw EngineError("MobileNetV2: output stride " + std::to_string(options.outputStride) + " is not one of 16, 32");
    std::int64_t outputStride = 2;
    int channels = divisible(32 * options.width);
    torch::nn::Sequential stem, body;
    appendConvNormRelu6(stem, layout.conv(3, channels, 3, outputStride, /*stride=*/2), true);
    int dilation = 1;
    for (std::size_t s = 0; s < std::size(kStages); ++s) {
        const auto& stage = kStages[s];
        const int out = divisible(stage.channels * options.width);
        // The 16- and 24-channel stages end at stride 4: their output is the decoder's skip.
        auto& target = s < 2 ? stem : body;
        for (int block = 0; block < stage.blocks; ++block) {
            int stride = block == 0 ? stage.stride : 1;
            const int blockDilation = dilation;
            if (stride == 2 && outputStride == options.outputStride) {
                // Past the output stride: dilate instead (DeepLabV3's output stride 16).
                stride = 1;
                dilation *= 2;
            }
            target->push_back(InvertedResidual(channels, out, stride, blockDilation, stage.expansion, layout, outputStride));
            channels = out;
        }
        if (s == 1)
            m_lowLevelChannels = out;
    }
    m_deepChannels = channels;
    setStages(stem, body);
    for (auto& module : modules(/*include_self=*/false)) {
        if (auto* c = module->as<torch::nn::Conv2d>()) {
            torch::nn::init::kaiming_normal_(c->weight, 0, torch::kFanOut);
        } else if (auto* norm = module->as<torch::nn::BatchNorm2d>()) {
            torch::NoGradGuard noGrad;
            norm->weight.fill_(1.0);
            norm->bias.zero_();
        }
    }
}

}  // namespace models
}  // namespace segstudio::engine
