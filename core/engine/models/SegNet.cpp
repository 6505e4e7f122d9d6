#include "SegNet.h"

#include "engine/runtime/EngineError.h"

#include <string>

namespace segstudio::engine {
inline namespace models {

namespace {

// max_unpool2d is a scatter that LibTorch flags as non-deterministic (even on CPU), so in
// deterministic mode unpool by comparison instead: every 2x2 window is non-overlapping, so each
// output pixel takes its window's value exactly when it is the pooled index. Same result,
// differentiable, no scatter.
torch::Tensor unpoolByMask(const torch::Tensor& x, const torch::Tensor& indices, const std::vector<std::int64_t>& size)
{
    const std::int64_t n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
    auto up = [&](const torch::Tensor& t) {
        return t.unsqueeze(3).unsqueeze(5).expand({n, c, h, 2, w, 2}).reshape({n, c, 2 * h, 2 * w});
    };
    auto values = up(x);
    auto where = up(indices);
    const std::int64_t padH = size[0] - 2 * h, padW = size[1] - 2 * w;
    if (padH || padW) {
        values = torch::constant_pad_nd(values, {0, padW, 0, padH}, 0.0);
        where = torch::constant_pad_nd(where, {0, padW, 0, padH}, -1);
    }
    const auto positions = torch::arange(size[0] * size[1], indices.options()).view({size[0], size[1]});
    return values * where.eq(positions).to(values.scalar_type());
}

}  // namespace

SegNetOptions SegNetOptions::vgg16(int classes)
{
    return {classes, 3, {{64, 64}, {128, 128}, {256, 256, 256}, {512, 512, 512}, {512, 512, 512}}, /*classifierKernel=*/3};
}

SegNetOptions SegNetOptions::basic(int classes)
{
    return {classes, 7, {{64}, {64}, {64}, {64}}};
}

SegNetOptions SegNetOptions::tiny(int classes)
{
    return {classes, 3, {{16}, {32}, {64}, {64}}};
}

SegNetImpl::SegNetImpl(SegNetOptions options)
    : m_options(std::move(options))
{
    if (m_options.classes < 1 || m_options.stages.empty() || m_options.kernel % 2 == 0)
        throw EngineError("SegNet: needs classes >= 1, at least one stage and an odd kernel size");
    int inChannels = 3;
    for (std::size_t s = 0; s < m_options.stages.size(); ++s) {
        m_encoders.push_back(register_module("encoder" + std::to_string(s), makeStage(inChannels, m_options.stages[s], true)));
        inChannels = m_options.stages[s].back();
    }
    // Decoder stage s mirrors encoder stage s: its channels run backwards and its last conv returns
    // to the channel count the encoder stage started from (the first stage keeps its own width).
    for (std::size_t s = 0; s < m_options.stages.size(); ++s) {
        std::vector<int> outs(m_options.stages[s].rbegin() + 1, m_options.stages[s].rend());
        outs.push_back(s == 0 ? m_options.stages[0].front() : m_options.stages[s - 1].back());
        if (s == 0 && m_options.classifierKernel > 1 && outs.size() > 1)
            outs.pop_back();  // the classifier conv takes the place of the last decoder conv
        m_decoders.push_back(register_module("decoder" + std::to_string(s), makeStage(m_options.stages[s].back(), outs, false)));
    }
    m_classifier = register_module("classifier", torch::nn::Conv2d(torch::nn::Conv2dOptions(
        /*in=*/m_options.stages[0].front(), /*out=*/m_options.classes, /*kernel=*/m_options.classifierKernel)
        .padding(m_options.classifierKernel / 2)));
    initialiseWeights();
}

torch::nn::Sequential SegNetImpl::makeStage(int inChannels, const std::vector<int>& outChannels, bool encoder)
{
    torch::nn::Sequential stage;
    for (int out : outChannels) {
        auto conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(inChannels, out, m_options.kernel)
                                          .padding(m_options.kernel / 2).bias(true));
        stage->push_back(conv);
        stage->push_back(torch::nn::BatchNorm2d(out));
        stage->push_back(torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true)));
        if (encoder)
            m_encoderConvs.push_back(conv);
        inChannels = out;
    }
    return stage;
}

void SegNetImpl::initialiseWeights()
{
    torch::NoGradGuard noGrad;
    for (auto& module : modules(/*include_self=*/false)) {
        if (auto* conv = module->as<torch::nn::Conv2d>()) {
            torch::nn::init::kaiming_normal_(conv->weight, /*a=*/0, torch::kFanOut, torch::kReLU);
            if (conv->bias.defined())
                conv->bias.zero_();
        } else if (auto* norm = module->as<torch::nn::BatchNorm2d>()) {
            norm->weight.fill_(1.0);
            norm->bias.zero_();
        }
    }
}

torch::Tensor SegNetImpl::forward(torch::Tensor images)
{
    const std::int64_t height = images.size(2), width = images.size(3);
    const std::int64_t divisor = sizeDivisor();
    const std::int64_t padH = (divisor - height % divisor) % divisor;
    const std::int64_t padW = (divisor - width % divisor) % divisor;
    torch::Tensor x = (padH || padW) ? torch::constant_pad_nd(images, {0, padW, 0, padH}, 0.0) : images;

    std::vector<torch::Tensor> indices;
    std::vector<std::vector<std::int64_t>> sizes;
    for (auto& encoder : m_encoders) {
        x = encoder->forward(x);
        sizes.push_back({x.size(2), x.size(3)});
        auto pooled = torch::max_pool2d_with_indices(x, /*kernel=*/{2, 2}, /*stride=*/{2, 2});
        x = std::get<0>(pooled);
        indices.push_back(std::get<1>(pooled));
    }
    for (std::size_t s = m_decoders.size(); s-- > 0;) {
        // max_unpool2d wants matching layouts; indices come out of pooling in x's layout.
        x = at::globalContext().deterministicAlgorithms() ? unpoolByMask(x, indices[s], sizes[s])
                                                          : torch::max_unpool2d(x.contiguous(), indices[s].contiguous(), sizes[s]);
        x = m_decoders[s]->forward(x);
    }
    x = m_classifier->forward(x);
    if (padH || padW)
        x = x.narrow(2, 0, height).narrow(3, 0, width);
    return x;
}

GraphValue SegNetImpl::writeGraph(GraphWriter& writer, const GraphValue& images)
{
    const std::int64_t height = images.value.size(2), width = images.value.size(3);
    const std::int64_t divisor = sizeDivisor();
    const std::int64_t padH = (divisor - height % divisor) % divisor;
    const std::int64_t padW = (divisor - width % divisor) % divisor;
    GraphValue x = (padH || padW) ? writer.padBottomRight(images, padH, padW) : images;
    std::vector<GraphValue> indices;
    std::vector<std::pair<std::int64_t, std::int64_t>> sizes;
    for (auto& encoder : m_encoders) {
        x = writer.sequential(x, *encoder);
        sizes.emplace_back(x.value.size(2), x.value.size(3));
        auto [pooled, where] = writer.maxPool2x2(x);
        x = pooled;
        indices.push_back(where);
    }
    for (std::size_t s = m_decoders.size(); s-- > 0;)
        x = writer.sequential(writer.maxUnpool2x2(x, indices[s], sizes[s].first, sizes[s].second), *m_decoders[s]);
    x = writer.conv(x, *m_classifier);
    return (padH || padW) ? writer.cropTopLeft(x, height, width) : x;
}

double SegNetImpl::forwardFlops(std::int64_t height, std::int64_t width) const
{
    const std::int64_t divisor = sizeDivisor();
    double h = double((height + divisor - 1) / divisor * divisor);
    double w = double((width + divisor - 1) / divisor * divisor);
    const double k2 = double(m_options.kernel) * m_options.kernel;
    double flops = 0;
    int in = 3;
    std::vector<double> pixels;
    for (const auto& stage : m_options.stages) {
        for (int out : stage) {
            flops += 2.0 * k2 * in * out * h * w;
            in = out;
        }
        pixels.push_back(h * w);
        h /= 2;
        w /= 2;
    }
    // The decoder mirrors the encoder's convolutions (except the 3-channel input), at the same sizes.
    for (std::size_t s = 0; s < m_options.stages.size(); ++s) {
        const auto& stage = m_options.stages[s];
        int channels = stage.back();
        std::vector<int> outs(stage.rbegin() + 1, stage.rend());
        outs.push_back(s == 0 ? stage.front() : m_options.stages[s - 1].back());
        for (int out : outs) {
            flops += 2.0 * k2 * channels * out * pixels[s];
            channels = out;
        }
    }
    flops += 2.0 * m_options.stages[0].front() * m_options.classes * pixels[0];
    return flops;
}

}  // namespace models
}  // namespace segstudio::engine
