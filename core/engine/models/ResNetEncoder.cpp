#include "ResNetEncoder.h"

#include "engine/runtime/EngineError.h"

#include <string>

namespace segstudio::engine {
inline namespace models {

namespace {

void appendConvNormRelu(torch::nn::Sequential& into, torch::nn::Conv2d c, bool activation)
{
    const auto channels = c->options.out_channels();
    into->push_back(c);
    into->push_back(torch::nn::BatchNorm2d(channels));
    if (activation)
        into->push_back(torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true)));
}

// Two 3x3 convs and a shortcut (a strided 1x1 conv + batch norm where the shape changes), added,
// then ReLU.
class BasicBlockImpl : public torch::nn::Module, public GraphWritable {
public:
    BasicBlockImpl(int in, int out, int stride, int dilation, ConvLayout& layout, std::int64_t& outputStride)
    {
        outputStride *= stride;
        torch::nn::Sequential body;
        appendConvNormRelu(body, layout.conv(in, out, 3, outputStride, stride, dilation), true);
        appendConvNormRelu(body, layout.conv(out, out, 3, outputStride, 1, dilation), false);
        m_body = register_module("body", body);
        if (stride != 1 || in != out) {
            torch::nn::Sequential shortcut;
            appendConvNormRelu(shortcut, layout.conv(in, out, 1, outputStride, stride), false);
            m_shortcut = register_module("shortcut", shortcut);
        }
    }

    torch::Tensor forward(const torch::Tensor& x)
    {
        return torch::relu(m_body->forward(x) + (m_shortcut ? m_shortcut->forward(x) : x));
    }

    // Zero-init of the residual branch's last norm (Goyal et al. 2017): the block starts as its
    // shortcut.
    void startAsShortcut()
    {
        torch::NoGradGuard noGrad;
        m_body->children().back()->as<torch::nn::BatchNorm2d>()->weight.zero_();
    }

    GraphValue writeGraph(GraphWriter& writer, const GraphValue& x) override
    {
        const GraphValue shortcut = m_shortcut ? writer.sequential(x, *m_shortcut) : x;
        return writer.relu(writer.add(writer.sequential(x, *m_body), shortcut));
    }

private:
    torch::nn::Sequential m_body{nullptr};
    torch::nn::Sequential m_shortcut{nullptr};
};

TORCH_MODULE(BasicBlock);

}  // namespace

ResNetEncoderImpl::ResNetEncoderImpl(ResNetOptions options, ConvLayout& layout)
    : m_deepChannels(options.lastStageChannels)
{
    if (options.outputStride != 16 && options.outputStride != 32)
        throw EngineError("ResNet: output stride " + std::to_string(options.outputStride) + " is not one of 16, 32");
    if (options.blocks.size() != 4)
        throw EngineError("ResNet: needs the number of blocks of each of its 4 stages");
    torch::nn::Sequential stem, body;
    appendConvNormRelu(stem, layout.conv(3, 32, 3, 2, /*stride=*/2), true);
    appendConvNormRelu(stem, layout.conv(32, 32, 3, 2), true);
    appendConvNormRelu(stem, layout.conv(32, 64, 3, 4, /*stride=*/2), true);
    std::int64_t outputStride = 4;
    int channels = 64;
    int dilation = 1;
    if (options.lastStageChannels < 1)
        throw EngineError("ResNet: the last stage needs at least one channel");
    const int widths[] = {64, 128, 256, options.lastStageChannels};
    for (std::size_t s = 0; s < 4; ++s) {
        auto& target = s == 0 ? stem : body;
        for (int block = 0; block < options.blocks[s]; ++block) {
            int stride = block == 0 && s > 0 ? 2 : 1;
            if (stride == 2 && outputStride == options.outputStride) {
                stride = 1;  // past the output stride: dilate instead (DeepLabV3)
                dilation *= 2;
            }
            target->push_back(BasicBlock(channels, widths[s], stride, dilation, layout, outputStride));
            channels = widths[s];
        }
    }
    setStages(stem, body);
    // At output stride 32 the third stage's last block is the last at stride 16.
    if (options.outputStride == 32)
        setMiddleLayer(options.blocks[1] + options.blocks[2] - 1, widths[2]);
    torch::NoGradGuard noGrad;
    for (auto& module : modules(/*include_self=*/false)) {
        if (auto* c = module->as<torch::nn::Conv2d>()) {
            torch::nn::init::kaiming_normal_(c->weight, 0, torch::kFanOut, torch::kReLU);
        } else if (auto* norm = module->as<torch::nn::BatchNorm2d>()) {
            norm->weight.fill_(1.0);
            norm->bias.zero_();
        }
    }
    for (auto& module : modules(/*include_self=*/false))
        if (auto* block = module->as<BasicBlockImpl>())
            block->startAsShortcut();
}

}  // namespace models
}  // namespace segstudio::engine
