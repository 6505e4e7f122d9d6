#include "Predictor.h"

#include "BatchNormAdaptation.h"

#include "engine/models/BilinearAxis.h"
#include "engine/runtime/EngineError.h"
#include "LoadedModel.h"
#include "engine/runtime/Runtime.h"
#include "run/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <new>
#include <sstream>

namespace segstudio::engine {
inline namespace inference {

struct Predictor::Impl {
    torch::Device device{torch::kCPU};
    LoadedModel loaded;
    std::size_t bandBytes = Predictor::kDefaultBandBytes;
    // The model's buffers (the batch norms' statistics) as the checkpoint had them, with a copy,
    // taken before the first adaptation so that each adaptation starts from the trained model.
    std::vector<std::pair<torch::Tensor, torch::Tensor>> trainedBuffers;
};

namespace {

// A checkpoint that does not record its training size runs at the image's own size, where the
// model's activations grow with the image: above this the image is refused, not run out of memory.
constexpr std::int64_t kMaxPixelsAtFullSize = 4096LL * 4096LL;

std::string sizeText(int height, int width)
{
    return std::to_string(height) + "x" + std::to_string(width);
}

// The model sees the image at the scale it was trained on (a model trained on 180x240 packs knows
// cars of that size). Only the source rows the bilinear resize reads are gathered from the 8-bit
// image and converted to float, never the whole image: memory grows with the training height
// times the image width, not with the image. Resizing 0..255 values and then normalising equals
// the reverse order (the normalisation is affine per channel, the resize's weights sum to 1).
torch::Tensor modelInput(const std::uint8_t* rgb, int height, int width, int trainedHeight, int trainedWidth,
                         torch::Device device)
{
    const auto host = torch::from_blob(const_cast<std::uint8_t*>(rgb), {height, width, 3}, torch::kUInt8);
    const BilinearAxis rows(height, trainedHeight), columns(width, trainedWidth);
    const auto top = host.index_select(0, rows.lower()).to(device).to(torch::kFloat);
    const auto bottom = host.index_select(0, rows.upper()).to(device).to(torch::kFloat);
    const auto resized = columns.apply(rows.mix(top, bottom, 0), 1);  // trainedHeight x trainedWidth x 3
    return normaliseImages(resized.permute({2, 0, 1}).unsqueeze(0).contiguous(), /*channelsLast=*/false);
}

// The model's scores for one image, and how to read them at the image's size band by band: the
// full-size score map (classes x height x width floats, 17 GB for 11 classes at 20000x20000) is
// never built; each band of rows is resized from the small map, used and dropped.
struct Scores {
    torch::Tensor logits;  // 1 x classes x h x w: at the training size, or the image's own
    bool rescaled = false;
    int height = 0;
    int width = 0;

    torch::Tensor band(std::int64_t begin, std::int64_t end) const  // 1 x classes x (end - begin) x width
    {
        if (!rescaled)
            return logits.slice(2, begin, end);
        const BilinearAxis rows(logits.size(2), height), columns(logits.size(3), width);
        return columns.apply(rows.slice(begin, end).apply(logits, 2), 3);
    }
};

bool runsRescaled(const LoadedModel& loaded, int height, int width)
{
    return loaded.trainedHeight > 0 && loaded.trainedWidth > 0 && (loaded.trainedHeight != height || loaded.trainedWidth != width);
}

// The normalised 1 x 3 x h x w input the model sees for an image: at its training size when the
// checkpoint records one, else at the image's own.
torch::Tensor inputOf(const LoadedModel& loaded, torch::Device device, const std::uint8_t* rgb, int height, int width)
{
    if (!rgb || height <= 0 || width <= 0)
        throw EngineError("predict: empty image");
    if (runsRescaled(loaded, height, width))
        return modelInput(rgb, height, width, loaded.trainedHeight, loaded.trainedWidth, device);
    if (std::int64_t(height) * width > kMaxPixelsAtFullSize)
        throw EngineError("predict: a " + sizeText(height, width) + " image is too large for a checkpoint that does not record "
                          "its training size (at most 4096x4096 pixels)");
    // from_blob does not copy; the tensor only lives inside this call, while rgb is valid.
    const auto host = torch::from_blob(const_cast<std::uint8_t*>(rgb), {1, height, width, 3}, torch::kUInt8);
    return normaliseImages(imagesToDevice(host, device), /*channelsLast=*/false);
}

Scores scoresOf(const LoadedModel& loaded, torch::Device device, const std::uint8_t* rgb, int height, int width)
{
    Scores scores;
    scores.height = height;
    scores.width = width;
    scores.rescaled = runsRescaled(loaded, height, width);
    scores.logits = loaded.decisionLogits(inputOf(loaded, device, rgb, height, width));
    return scores;
}

// The images in batches of one input size: at most `batch` images and, beyond one image, at most
// `maxPixels` input pixels each (a checkpoint without its training size runs images at their own
// size), in the order of the first image of each size. Indices into `images`.
std::vector<std::vector<std::size_t>> adaptationBatches(const LoadedModel& loaded, const std::vector<Predictor::ImageView>& images,
                                                        std::size_t batch, std::int64_t maxPixels)
{
    std::vector<std::pair<std::pair<int, int>, std::vector<std::size_t>>> bySize;  // (input size, images)
    for (std::size_t i = 0; i < images.size(); ++i) {
        const auto& image = images[i];
        const auto size = runsRescaled(loaded, image.height, image.width) ? std::pair(loaded.trainedHeight, loaded.trainedWidth)
                                                                          : std::pair(image.height, image.width);
        auto same = std::find_if(bySize.begin(), bySize.end(), [&](const auto& group) { return group.first == size; });
        if (same == bySize.end())
            bySize.push_back({size, {i}});
        else
            same->second.push_back(i);
    }
    std::vector<std::vector<std::size_t>> batches;
    for (const auto& [size, group] : bySize) {
        const std::int64_t pixels = std::max<std::int64_t>(1, std::int64_t(size.first) * size.second);
        const auto each = std::size_t(std::clamp<std::int64_t>(maxPixels / pixels, 1, std::int64_t(batch)));
        for (std::size_t begin = 0; begin < group.size(); begin += each)
            batches.emplace_back(group.begin() + std::ptrdiff_t(begin),
                                 group.begin() + std::ptrdiff_t(std::min(group.size(), begin + each)));
    }
    return batches;
}

// Rows per band: the band's scores, the two gathers that resize it and the softmax's copies (about
// 4 float copies of classes x rows x width at any time) stay within bandBytes.
std::int64_t bandRows(std::size_t bandBytes, std::int64_t classes, int height, int width)
{
    const std::int64_t rowBytes = 4 * classes * std::int64_t(width) * std::int64_t(sizeof(float));
    return std::clamp<std::int64_t>(std::int64_t(bandBytes) / std::max<std::int64_t>(1, rowBytes), 1, height);
}

void copyBytes(const torch::Tensor& values, std::vector<std::uint8_t>& out, std::size_t offset)
{
    const auto host = values.to(torch::kUInt8).to(torch::kCPU).contiguous();
    std::memcpy(out.data() + offset, host.data_ptr<std::uint8_t>(), std::size_t(host.numel()));
}

// The scores of Prediction::scores: the logits at the size the model ran at (shrunk to at most
// kMaxScorePixels), as quantised negative log-probabilities, pixel by pixel with the classes inside.
void fillScores(const torch::Tensor& logits, Predictor::Prediction& prediction)
{
    torch::Tensor map = logits;
    std::int64_t height = logits.size(2), width = logits.size(3);
    if (height * width > Predictor::kMaxScorePixels) {
        const double shrink = std::sqrt(double(Predictor::kMaxScorePixels) / double(height * width));
        const std::int64_t toHeight = std::max<std::int64_t>(1, std::int64_t(double(height) * shrink));
        const std::int64_t toWidth = std::max<std::int64_t>(1, std::int64_t(double(width) * shrink));
        map = BilinearAxis(width, toWidth).apply(BilinearAxis(height, toHeight).apply(map, 2), 3);
        height = toHeight;
        width = toWidth;
    }
    const auto quantised = (-torch::log_softmax(map, 1) * double(Predictor::kScoreSteps)).round().clamp(0.0, 255.0);
    prediction.scores.resize(std::size_t(quantised.numel()));
    copyBytes(quantised[0].permute({1, 2, 0}).contiguous(), prediction.scores, 0);
    prediction.scoreHeight = int(height);
    prediction.scoreWidth = int(width);
}

// LibTorch reports a failed allocation as a c10::Error with a stack trace of thirty lines; the
// caller gets one line (and adds the image's name).
template <typename Work>
auto withOneLineErrors(int height, int width, Work work)
{
    try {
        return work();
    } catch (const c10::Error& error) {
        const std::string what = error.what_without_backtrace();
        throw EngineError("predict: " + what.substr(0, what.find('\n')) + " (image " + sizeText(height, width) + ")");
    } catch (const std::bad_alloc&) {
        throw EngineError("predict: not enough memory for a " + sizeText(height, width) + " image");
    }
}

}  // namespace

Predictor::Predictor(const std::string& checkpoint, const std::string& device, int threads, const std::string& precision)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->device = chooseDevice(device);
    // No cuDNN algorithm search: every new image size would start one (seconds each for the
    // default model's depthwise convolutions, which then ran slower than without it: SCALING.md).
    configureRuntime(threads, /*deterministic=*/false, /*cudnnBenchmark=*/false);
    m_impl->loaded = LoadedModel::fromCheckpoint(checkpoint, m_impl->device);
    m_impl->loaded.setPrecision(precision, m_impl->device);
}

Predictor::~Predictor() = default;

void Predictor::setBandBytes(std::size_t bytes)
{
    m_impl->bandBytes = std::max<std::size_t>(1, bytes);
}

std::vector<std::uint8_t> Predictor::predict(const std::uint8_t* rgb, int height, int width)
{
    return withOneLineErrors(height, width, [&] {
        torch::NoGradGuard noGrad;
        const auto scores = scoresOf(m_impl->loaded, m_impl->device, rgb, height, width);
        std::vector<std::uint8_t> classes(std::size_t(height) * std::size_t(width));
        const std::int64_t step = bandRows(m_impl->bandBytes, scores.logits.size(1), height, width);
        for (std::int64_t begin = 0; begin < height; begin += step) {
            const std::int64_t end = std::min<std::int64_t>(height, begin + step);
            copyBytes(scores.band(begin, end).argmax(1), classes, std::size_t(begin) * std::size_t(width));
        }
        return classes;
    });
}

Predictor::Prediction Predictor::predictWithConfidence(const std::uint8_t* rgb, int height, int width)
{
    return withOneLineErrors(height, width, [&] {
        torch::NoGradGuard noGrad;
        const auto scores = scoresOf(m_impl->loaded, m_impl->device, rgb, height, width);
        const std::size_t pixels = std::size_t(height) * std::size_t(width);
        Prediction prediction;
        prediction.classes.resize(pixels);
        prediction.confidence.resize(pixels);
        prediction.entropy.resize(pixels);
        const double logClasses = std::log(double(std::max(2, classes())));
        double entropySum = 0.0;
        const std::int64_t step = bandRows(m_impl->bandBytes, scores.logits.size(1), height, width);
        for (std::int64_t begin = 0; begin < height; begin += step) {
            const std::int64_t end = std::min<std::int64_t>(height, begin + step);
            const auto logProbabilities = torch::log_softmax(scores.band(begin, end), 1);
            const auto [best, ids] = logProbabilities.max(1);
            const auto entropy = (-(logProbabilities.exp() * logProbabilities).sum(1) / logClasses).clamp(0.0, 1.0);
            const std::size_t offset = std::size_t(begin) * std::size_t(width);
            copyBytes(ids, prediction.classes, offset);
            copyBytes((best.exp() * 255.0).round(), prediction.confidence, offset);
            copyBytes((entropy * 255.0).round(), prediction.entropy, offset);
            entropySum += entropy.to(torch::kDouble).sum().item<double>();
        }
        prediction.meanEntropy = entropySum / double(pixels);
        fillScores(scores.logits, prediction);
        return prediction;
    });
}

Predictor::Adaptation Predictor::adaptNormalisation(const std::vector<ImageView>& images, double weight)
{
    if (weight == 0.0) {
        adaptNormalisation({}, [](double) { return 0.0; });  // the trained statistics back
        return {};
    }
    return adaptNormalisation(images, [weight](double) { return weight; });
}

Predictor::Adaptation Predictor::adaptNormalisation(const std::vector<ImageView>& images,
                                                    const std::function<double(double shift)>& weightFor)
{
    auto& model = *m_impl->loaded.model;
    torch::NoGradGuard noGrad;
    rememberTrainedBuffers();
    for (auto& [buffer, trained] : m_impl->trainedBuffers)
        buffer.copy_(trained);
    if (images.empty())
        return {};
    const auto& loaded = m_impl->loaded;
    // Each batch's inputs made as it runs: memory for one batch, whatever the number of images.
    const auto result = BatchNormAdaptation::adapt(model, weightFor, [&] {
        for (const auto& batch : adaptationBatches(loaded, images, kAdaptationBatch, kAdaptationPixels)) {
            std::vector<torch::Tensor> inputs;
            for (const std::size_t i : batch)
                inputs.push_back(inputOf(loaded, m_impl->device, images[i].rgb, images[i].height, images[i].width));
            loaded.decisionLogits(torch::cat(inputs));
        }
    });
    return {result.shift, result.weight};
}

void Predictor::rememberTrainedBuffers()
{
    if (!m_impl->trainedBuffers.empty())
        return;
    for (auto& buffer : m_impl->loaded.model->buffers())
        m_impl->trainedBuffers.emplace_back(buffer, buffer.clone());
}

void Predictor::saveAdaptation(const std::string& file, const Adaptation& adaptation, const std::string& key)
{
    torch::serialize::OutputArchive archive;
    archive.write("key", c10::IValue(key));
    archive.write("shift", c10::IValue(adaptation.shift));
    archive.write("weight", c10::IValue(adaptation.weight));
    const auto buffers = m_impl->loaded.model->buffers();
    archive.write("buffers", c10::IValue(std::int64_t(buffers.size())));
    for (std::size_t i = 0; i < buffers.size(); ++i)
        archive.write("buffer" + std::to_string(i), buffers[i].cpu(), /*is_buffer=*/true);
    // In memory first: LibTorch's file writer reports a full disk from its destructor.
    std::ostringstream bytes;
    try {
        archive.save_to(bytes);
    } catch (const c10::Error& error) {
        throw EngineError(file + ": cannot serialise the adaptation (" + error.what_without_backtrace() + ")");
    }
    try {
        run::writeFileAtomically(file, std::move(bytes).str(), run::Durability::Deferred);
    } catch (const std::exception& error) {
        throw EngineError(error.what());
    }
}

std::optional<Predictor::Adaptation> Predictor::restoreAdaptation(const std::string& file, const std::string& key)
{
    if (!std::filesystem::exists(file))
        return std::nullopt;
    const auto unreadable = [&](const std::string& why) { return EngineError(file + ": not a readable adaptation (" + why + ")"); };
    torch::serialize::InputArchive archive;
    c10::IValue keyValue, shift, weight, count;
    try {
        archive.load_from(file, torch::Device(torch::kCPU));
        archive.read("key", keyValue);
        if (!keyValue.isString() || keyValue.toStringRef() != key)
            return std::nullopt;
        archive.read("shift", shift);
        archive.read("weight", weight);
        archive.read("buffers", count);
    } catch (const c10::Error& error) {
        throw unreadable(error.what_without_backtrace());
    }
    auto buffers = m_impl->loaded.model->buffers();
    if (!count.isInt() || count.toInt() != std::int64_t(buffers.size()) || !shift.isDouble() || !weight.isDouble())
        throw unreadable("made for another model");
    std::vector<torch::Tensor> saved(buffers.size());
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        try {
            archive.read("buffer" + std::to_string(i), saved[i], /*is_buffer=*/true);
        } catch (const c10::Error& error) {
            throw unreadable(error.what_without_backtrace());
        }
        if (saved[i].sizes() != buffers[i].sizes() || saved[i].scalar_type() != buffers[i].scalar_type())
            throw unreadable("made for another model");
    }
    rememberTrainedBuffers();
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < buffers.size(); ++i)
        buffers[i].copy_(saved[i]);
    return Adaptation{shift.toDouble(), weight.toDouble()};
}

std::pair<int, int> Predictor::inputSize() const
{
    return {m_impl->loaded.trainedHeight, m_impl->loaded.trainedWidth};
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

}  // namespace inference
}  // namespace segstudio::engine
