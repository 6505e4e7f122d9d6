#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {

// Label maps from a trained checkpoint, for images of any size, without LibTorch in this header so
// the CLI and the UI can use it cheaply.
// Requirements: one thread at a time per Predictor.
// Guarantees: predict() returns height*width class ids (0..classes-1), row-major.
class Predictor {
public:
    explicit Predictor(const std::string& checkpoint, const std::string& device = "auto", int threads = 0);
    ~Predictor();
    Predictor(const Predictor&) = delete;
    Predictor& operator=(const Predictor&) = delete;

    // rgb: height*width*3 bytes, R first.
    std::vector<std::uint8_t> predict(const std::uint8_t* rgb, int height, int width);

    int classes() const;
    const std::vector<std::string>& classNames() const;
    const std::string& modelName() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace segstudio::engine
