#pragma once

#include "GraphWriter.h"

#include <torch/torch.h>

namespace segstudio::engine {

// What a DeepLabV3+ decoder needs of an encoder: features at stride 4 (the skip) and at the
// encoder's output stride (16 or 32, for the atrous pyramid), and their widths.
// Guarantees: any input size; lowLevel has stride 4, deep the encoder's output stride (rounded up).
class SegmentationEncoderImpl : public torch::nn::Module {
public:
    struct Features {
        torch::Tensor lowLevel;
        torch::Tensor deep;
    };
    struct GraphFeatures {
        GraphValue lowLevel;
        GraphValue deep;
    };

    virtual Features forward(torch::Tensor images) = 0;
    virtual GraphFeatures writeGraph(GraphWriter& writer, const GraphValue& images) = 0;
    virtual int lowLevelChannels() const = 0;
    virtual int deepChannels() const = 0;
};

}  // namespace segstudio::engine
