#pragma once

#include "GraphWriter.h"

#include <torch/torch.h>

#include <cstdint>

namespace segstudio::engine {
inline namespace models {

// Base of every model in the ModelRegistry: normalised images in, per-pixel class logits out.
// Requirements: input N x 3 x H x W float (ImageNet-normalised RGB), any H and W.
// Guarantees: output N x classes x H x W; a model that needs sizes divisible by sizeDivisor()
// pads internally and crops its output back, so callers never resize.
class SegmentationModelImpl : public torch::nn::Module {
public:
    virtual torch::Tensor forward(torch::Tensor images) = 0;
    virtual int classes() const = 0;
    // Multiply-adds x 2 of one forward pass at this input size, for throughput and MFU figures.
    virtual double forwardFlops(std::int64_t height, std::int64_t width) const = 0;
    // The part pretrained weights can initialise (EncoderWeights), or nullptr.
    virtual torch::nn::Module* encoder() { return nullptr; }
    // forward() written step by step into a graph (ONNX export); next to forward() in each model,
    // so the two are read and changed together.
    virtual GraphValue writeGraph(GraphWriter& writer, const GraphValue& images) = 0;
};

}  // namespace models
}  // namespace segstudio::engine
