#include "Predictor.h"

#include "EngineError.h"
#include "LoadedModel.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace segstudio::engine {

struct Predictor::Impl {
    torch::Device device{torch::kCPU};
    LoadedModel loaded;
};

namespace {

torch::Tensor logitsAtImageSize(const LoadedModel& loaded, const torch::Tensor& input, int height, int width)
{
    // The model sees the image at the scale it was trained on (a model trained on 180x240 packs
    // knows cars of that size), and its scores are resized back to the image: bilinear logits,
    // then argmax, so class borders stay smooth.
    const int trainedHeight = loaded.trainedHeight, trainedWidth = loaded.trainedWidth;
    namespace F = torch::nn::functional;
    const bool rescale = trainedHeight > 0 && trainedWidth > 0 && (trainedHeight != height || trainedWidth != width);
    const auto atTrainedSize =
        rescale ? F::interpolate(input, F::InterpolateFuncOptions()
                                            .size(std::vector<std::int64_t>{trainedHeight, trainedWidth})
                                            .mode(torch::kBilinear)
                                            .align_corners(false))
                : input;
    auto logits = loaded.model->forward(atTrainedSize).to(torch::kFloat);
    if (rescale)
        logits = F::interpolate(logits, F::InterpolateFuncOptions()
                                            .size(std::vector<std::int64_t>{height, width})
                                            .mode(torch::kBilinear)
                                            .align_corners(false));
    return logits;
}

}  // namespace

Predictor::Predictor(const std::string& checkpoint, const std::string& device, int threads)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->device = chooseDevice(device);
    configureRuntime(threads, /*deterministic=*/false, /*cudnnBenchmark=*/true);
    m_impl->loaded = LoadedModel::fromCheckpoint(checkpoint, m_impl->device);
}

Predictor::~Predictor() = default;

namespace {

std::vector<std::uint8_t> bytesOf(const torch::Tensor& values)
{
    const auto host = values.to(torch::kUInt8).to(torch::kCPU).contiguous();
    std::vector<std::uint8_t> bytes(std::size_t(host.numel()));
    std::memcpy(bytes.data(), host.data_ptr<std::uint8_t>(), bytes.size());
    return bytes;
}

// The model's scores for one RGB image, at the image's size. Requirements: a NoGradGuard.
torch::Tensor logitsOf(const LoadedModel& loaded, torch::Device device, const std::uint8_t* rgb, int height, int width)
{
    if (!rgb || height <= 0 || width <= 0)
        throw EngineError("predict: empty image");
    // from_blob does not copy; the tensor only lives inside this call, while rgb is valid.
    const auto host = torch::from_blob(const_cast<std::uint8_t*>(rgb), {1, height, width, 3}, torch::kUInt8);
    const auto input = normaliseImages(imagesToDevice(host, device), /*channelsLast=*/false);
    return logitsAtImageSize(loaded, input, height, width);
}

}  // namespace

std::vector<std::uint8_t> Predictor::predict(const std::uint8_t* rgb, int height, int width)
{
    torch::NoGradGuard noGrad;
    return bytesOf(logitsOf(m_impl->loaded, m_impl->device, rgb, height, width).argmax(1));
}

Predictor::Prediction Predictor::predictWithConfidence(const std::uint8_t* rgb, int height, int width)
{
    torch::NoGradGuard noGrad;
    const auto logits = logitsOf(m_impl->loaded, m_impl->device, rgb, height, width);
    const auto logProbabilities = torch::log_softmax(logits, 1);
    const auto [best, ids] = logProbabilities.max(1);
    const double logClasses = std::log(double(std::max(2, classes())));
    const auto entropy = (-(logProbabilities.exp() * logProbabilities).sum(1) / logClasses).clamp(0.0, 1.0);
    Prediction prediction;
    prediction.classes = bytesOf(ids);
    prediction.confidence = bytesOf((best.exp() * 255.0).round());
    prediction.entropy = bytesOf((entropy * 255.0).round());
    prediction.meanEntropy = entropy.mean().item<double>();
    return prediction;
}

int Predictor::classes() const
{
    return int(m_impl->loaded.classNames.size());
}

const std::vector<std::string>& Predictor::classNames() const
{
    return m_impl->loaded.classNames;
}

const std::string& Predictor::modelName() const
{
    return m_impl->loaded.name;
}

}  // namespace segstudio::engine
