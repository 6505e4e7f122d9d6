#include "DeepLabV3Plus.h"

#include "BilinearAxis.h"
#include "engine/runtime/EngineError.h"

namespace segstudio::engine {
inline namespace models {

namespace F = torch::nn::functional;

namespace {

// Bilinear resize as two matrix products, for bf16 on a CPU: there F::interpolate's kernels are
// scalar (LibTorch 1.13), and the two resizes of a step took a quarter of its time, forward and
// backward, against a tenth of that for oneDNN's bf16 matrix products (docs/BENCHMARKS.md).
torch::Tensor resizeByMatrices(const torch::Tensor& x, std::int64_t height, std::int64_t width)
{
    const auto options = x.options().memory_format(c10::nullopt);
    const auto rows = BilinearAxis(x.size(2), height).matrix().to(options);
    const auto columnsTransposed = BilinearAxis(x.size(3), width).matrix().t().to(options);
    return torch::matmul(torch::matmul(rows, x), columnsTransposed).contiguous(x.suggest_memory_format());
}

torch::Tensor resizeTo(const torch::Tensor& x, std::int64_t height, std::int64_t width)
{
    if (x.device().is_cpu() && x.scalar_type() == torch::kBFloat16)
        return resizeByMatrices(x, height, width);
    return F::interpolate(x, F::InterpolateFuncOptions()
                                 .size(std::vector<std::int64_t>{height, width})
                                 .mode(torch::kBilinear)
                                 .align_corners(false));
}

}  // namespace

DeepLabV3PlusImpl::DeepLabV3PlusImpl(DeepLabV3PlusOptions options)
    : m_options(std::move(options))
{
    if (m_options.classes < 1 || !(m_options.width > 0))
        throw EngineError("DeepLabV3+: needs classes >= 1 and a positive width");
    if (m_options.encoder == DeepLabV3PlusOptions::Encoder::ResNet)
        m_encoder = register_module("encoder", std::make_shared<ResNetEncoderImpl>(
                                                   ResNetOptions{m_options.resNetBlocks, m_options.encoderStride, m_options.resNetLastStageChannels}, m_layout));
    else
        m_encoder = register_module("encoder", std::make_shared<MobileNetV2EncoderImpl>(
                                                   MobileNetV2Options{m_options.width, m_options.encoderStride}, m_layout));
    m_pyramid = register_module("pyramid", AtrousSpatialPyramid(m_encoder->deepChannels(), m_options.pyramidChannels,
                                                                 m_options.rates, m_layout, m_options.encoderStride));
    m_skip = register_module("skip", pointwiseConv(m_encoder->lowLevelChannels(), m_options.skipChannels, m_layout, 4));
    if (m_options.middleSkipChannels > 0) {
        if (m_encoder->middleChannels() == 0)
            throw EngineError("DeepLabV3+: a stride-16 skip needs an encoder at output stride 32 that hands out stride-16 features");
        m_middleSkip = register_module("middleSkip", pointwiseConv(m_encoder->middleChannels(), m_options.middleSkipChannels,
                                                                   m_layout, 16));
        m_middleFuse = register_module("middleFuse", separableConv(m_options.pyramidChannels + m_options.middleSkipChannels,
                                                                   m_options.pyramidChannels, 1, m_layout, 16));
    }
    torch::nn::Sequential refine;
    refine->extend(*separableConv(m_options.pyramidChannels + m_options.skipChannels, m_options.decoderChannels, 1,
                                  m_layout, 4));
    refine->extend(*separableConv(m_options.decoderChannels, m_options.decoderChannels, 1, m_layout, 4));
    m_refine = register_module("refine", refine);
    m_classifier = register_module("classifier", torch::nn::Conv2d(torch::nn::Conv2dOptions(
                                                     m_options.decoderChannels, m_options.classes, 1)));
    m_layout.add(m_classifier, 4);
    torch::NoGradGuard noGrad;
    // The encoder initialised itself (and may get pretrained weights); the head starts from He.
    std::vector<std::shared_ptr<torch::nn::Module>> heads{m_pyramid.ptr(), m_skip.ptr(), m_refine.ptr(), m_classifier.ptr()};
    if (m_middleSkip) {
        heads.push_back(m_middleSkip.ptr());
        heads.push_back(m_middleFuse.ptr());
    }
    for (const auto& head : heads)
        for (auto& module : head->modules(/*include_self=*/true))
            if (auto* conv = module->as<torch::nn::Conv2d>()) {
                torch::nn::init::kaiming_normal_(conv->weight, 0, torch::kFanOut, torch::kReLU);
                if (conv->bias.defined())
                    conv->bias.zero_();
            }
}

torch::Tensor DeepLabV3PlusImpl::forward(torch::Tensor images)
{
    const std::int64_t height = images.size(2), width = images.size(3);
    const auto features = m_encoder->forward(images);
    const auto& skip = features.lowLevel;
    auto context = m_pyramid->forward(features.deep);
    if (m_middleSkip) {
        const auto& middle = features.middle;
        context = resizeTo(context, middle.size(2), middle.size(3));
        context = m_middleFuse->forward(torch::cat({context, m_middleSkip->forward(middle)}, 1));
    }
    context = resizeTo(context, skip.size(2), skip.size(3));
    auto x = m_refine->forward(torch::cat({context, m_skip->forward(skip)}, 1));
    return resizeTo(m_classifier->forward(x), height, width);
}

GraphValue DeepLabV3PlusImpl::writeGraph(GraphWriter& writer, const GraphValue& images)
{
    const std::int64_t height = images.value.size(2), width = images.value.size(3);
    const auto features = m_encoder->writeGraph(writer, images);
    const auto& skip = features.lowLevel;
    auto context = m_pyramid->writeGraph(writer, features.deep);
    if (m_middleSkip) {
        const auto& middle = features.middle;
        context = writer.resizeBilinear(context, middle.value.size(2), middle.value.size(3));
        context = writer.sequential(writer.concatChannels({context, writer.sequential(middle, *m_middleSkip)}), *m_middleFuse);
    }
    context = writer.resizeBilinear(context, skip.value.size(2), skip.value.size(3));
    const auto x = writer.sequential(writer.concatChannels({context, writer.sequential(skip, *m_skip)}), *m_refine);
    return writer.resizeBilinear(writer.conv(x, *m_classifier), height, width);
}

}  // namespace models
}  // namespace segstudio::engine
