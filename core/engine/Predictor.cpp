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

Predictor::Predictor(const std::string& checkpoint, const std::string& device, int threads)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->device = chooseDevice(device);
    configureRuntime(threads, /*deterministic=*/false, /*cudnnBenchmark=*/true);
    m_impl->loaded = LoadedModel::fromCheckpoint(checkpoint, m_impl->device);
}

Predictor::~Predictor() = default;

std::vector<std::uint8_t> Predictor::predict(const std::uint8_t* rgb, int height, int width)
{
    if (!rgb || height <= 0 || width <= 0)
        throw EngineError("predict: empty image");
    torch::NoGradGuard noGrad;
    // from_blob does not copy; the tensor only lives inside this call, while rgb is valid.
    const auto host = torch::from_blob(const_cast<std::uint8_t*>(rgb), {1, height, width, 3}, torch::kUInt8);
    const auto input = normaliseImages(imagesToDevice(host, m_impl->device), /*channelsLast=*/false);
    const auto labels = m_impl->loaded.model->forward(input).argmax(1).to(torch::kUInt8).to(torch::kCPU).contiguous();
    std::vector<std::uint8_t> result(std::size_t(height) * std::size_t(width));
    std::memcpy(result.data(), labels.data_ptr<std::uint8_t>(), result.size());
    return result;
}

namespace {

std::vector<std::uint8_t> bytesOf(const torch::Tensor& values)
{
    const auto host = values.to(torch::kUInt8).to(torch::kCPU).contiguous();
    std::vector<std::uint8_t> bytes(std::size_t(host.numel()));
    std::memcpy(bytes.data(), host.data_ptr<std::uint8_t>(), bytes.size());
    return bytes;
}

}  // namespace

Predictor::Prediction Predictor::predictWithConfidence(const std::uint8_t* rgb, int height, int width)
{
    if (!rgb || height <= 0 || width <= 0)
        throw EngineError("predict: empty image");
    torch::NoGradGuard noGrad;
    const auto host = torch::from_blob(const_cast<std::uint8_t*>(rgb), {1, height, width, 3}, torch::kUInt8);
    const auto input = normaliseImages(imagesToDevice(host, m_impl->device), /*channelsLast=*/false);
    const auto logits = m_impl->loaded.model->forward(input).to(torch::kFloat);
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
