#pragma once

#include "GraphWriter.h"

#include <torch/torch.h>

namespace segstudio::engine {

// What a DeepLabV3+ decoder needs of an encoder: features at stride 4 (the skip) and at the
// encoder's output stride (16 or 32, for the atrous pyramid), and their widths. Every encoder is
// two stages run one after the other, "stem" (input to stride 4) and "body" (stride 4 to the
// output stride), which a subclass builds and hands over with setStages().
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

    Features forward(torch::Tensor images)
    {
        Features features;
        features.lowLevel = m_stem->forward(images);
        features.deep = m_body->forward(features.lowLevel);
        return features;
    }

    GraphFeatures writeGraph(GraphWriter& writer, const GraphValue& images)
    {
        GraphFeatures features;
        features.lowLevel = writer.sequential(images, *m_stem);
        features.deep = writer.sequential(features.lowLevel, *m_body);
        return features;
    }

    virtual int lowLevelChannels() const = 0;
    virtual int deepChannels() const = 0;

protected:
    // Registers them as "stem" and "body", in that order (pretrained weights load by position).
    void setStages(torch::nn::Sequential stem, torch::nn::Sequential body)
    {
        m_stem = register_module("stem", std::move(stem));
        m_body = register_module("body", std::move(body));
    }

private:
    torch::nn::Sequential m_stem{nullptr};
    torch::nn::Sequential m_body{nullptr};
};

}  // namespace segstudio::engine
