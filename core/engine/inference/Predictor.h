#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace segstudio::engine {
inline namespace inference {

// Label maps from a trained checkpoint, for images of any size, without LibTorch in this header so
// the CLI and the UI can use it cheaply.
// Requirements: one thread at a time per Predictor.
// Guarantees: predict() returns height*width class ids (0..classes-1), row-major. The model runs
//   at its training size; its scores are resized to the image band by band, so the memory used
//   beyond the image and the returned maps is bounded: about 12 x trainingHeight x width bytes
//   for the resized input, plus bandBytes for the scores (docs/ENGINE.md, "Prediction memory").
//   A failure (out of memory included) is an EngineError of one line with the image's size.
class Predictor {
public:
    static constexpr std::size_t kDefaultBandBytes = std::size_t(64) << 20;

    // precision: auto | fp32 | bf16 (inferencePrecision: bf16 where the device computes it natively).
    explicit Predictor(const std::string& checkpoint, const std::string& device = "auto", int threads = 0,
                       const std::string& precision = "auto");
    ~Predictor();
    Predictor(const Predictor&) = delete;
    Predictor& operator=(const Predictor&) = delete;

    // rgb: height*width*3 bytes, R first.
    std::vector<std::uint8_t> predict(const std::uint8_t* rgb, int height, int width);

    // The class map with how sure the model is of each pixel, as 8-bit maps (0..255) that are
    // cheap to cache and to draw: the highest softmax probability, and the entropy of the
    // softmax divided by log(classes) (0 = certain, 255 = uniform).
    struct Prediction {
        std::vector<std::uint8_t> classes;
        std::vector<std::uint8_t> confidence;
        std::vector<std::uint8_t> entropy;
        double meanEntropy = 0.0;  // normalised entropy averaged over the image, 0..1
        // Every class's score, for tools that ask "how likely is class c here" (the smart click):
        // per pixel and class, -ln(softmax probability) in steps of 1/kScoreSteps nat (255 = 15.9
        // nats or more), classes interleaved (scores[(y * scoreWidth + x) * classes + c]), at the
        // size the model ran at, shrunk to at most kMaxScorePixels, so a 12-megapixel image costs
        // no more than one of the model's own size.
        std::vector<std::uint8_t> scores;
        int scoreHeight = 0;
        int scoreWidth = 0;
    };
    static constexpr int kScoreSteps = 16;
    static constexpr std::int64_t kMaxScorePixels = 480 * 640;
    Prediction predictWithConfidence(const std::uint8_t* rgb, int height, int width);

    // Test-time adaptation to the images about to be labelled (BatchNormAdaptation): the batch
    // norms' statistics estimated on them, blended with the trained ones by `weight` (0: as
    // trained, 1: theirs alone). The images are seen at the model's training size, in batches of
    // up to kAdaptationBatch of one size and, beyond one image, kAdaptationPixels input pixels
    // (a checkpoint without its training size sees them at their own). Lasts until the next call
    // (which starts from the trained statistics again) or the end of this Predictor.
    struct ImageView {
        const std::uint8_t* rgb = nullptr;  // height*width*3 bytes, R first
        int height = 0;
        int width = 0;
    };
    static constexpr int kAdaptationBatch = 8;
    static constexpr std::int64_t kAdaptationPixels = 8LL * 360 * 480;
    // Returns how far the images' statistics lie from the trained ones (BatchNormAdaptation's
    // shift) and the weight applied; weightFor chooses the weight from that shift.
    struct Adaptation {
        double shift = 0.0;
        double weight = 0.0;
    };
    Adaptation adaptNormalisation(const std::vector<ImageView>& images, double weight);
    Adaptation adaptNormalisation(const std::vector<ImageView>& images, const std::function<double(double shift)>& weightFor);

    // The adaptation in force, kept in a file so that the next process predicting for the same
    // images puts it back instead of observing them again (the editor starts one process per
    // image, and observing 16 images is half of its time and memory). `key` names what the
    // adaptation was made from (the CLI: the checkpoint, the images and the options, with their
    // sizes and times). The file is written atomically; EngineError names it when that fails.
    void saveAdaptation(const std::string& file, const Adaptation& adaptation, const std::string& key);
    // The adaptation that `file` keeps under `key`, put in force as adaptNormalisation would have;
    // nullopt, and the model untouched, when there is no such file or it was made for another key.
    // EngineError names the file when it cannot be read or does not fit this model.
    std::optional<Adaptation> restoreAdaptation(const std::string& file, const std::string& key);

    // The most memory the score bands of one image may take (default 64 MiB); smaller in tests,
    // to cut a small image into many bands.
    void setBandBytes(std::size_t bytes);

    // The size the model sees images at (its training size); {0, 0} when the checkpoint does not
    // say, and images are seen at their own.
    std::pair<int, int> inputSize() const;

    int classes() const;
    const std::vector<std::string>& classNames() const;
    const std::string& modelName() const;

private:
    // The model's buffers as the checkpoint had them, kept before the first change to them.
    void rememberTrainedBuffers();

    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace inference
}  // namespace segstudio::engine
