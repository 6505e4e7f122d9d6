#pragma once

#include "GraphWriter.h"

#include <torch/torch.h>

namespace segstudio::engine {
inline namespace models {

// What a DeepLabV3+ decoder needs of an encoder: features at stride 4 (the skip) and at the
// encoder's output stride (16 or 32, for the atrous pyramid), and their widths. Every encoder is
// two stages run one after the other, "stem" (input to stride 4) and "body" (stride 4 to the
// output stride), which a subclass builds and hands over with setStages().
// An encoder that names one of its body's layers as the last at stride 16 (setMiddleLayer) also
// hands out that layer's output, for a second skip of a stride-32 encoder.
// Guarantees: any input size; lowLevel has stride 4, deep the encoder's output stride (rounded up),
// middle (when the encoder has one) stride 16.
class SegmentationEncoderImpl : public torch::nn::Module {
public:
    struct Features {
        torch::Tensor lowLevel;
        torch::Tensor middle;  // undefined without a middle layer
        torch::Tensor deep;
    };
    struct GraphFeatures {
        GraphValue lowLevel;
        GraphValue middle;
        GraphValue deep;
    };

    Features forward(torch::Tensor images)
    {
        Features features;
        features.lowLevel = m_stem->forward(images);
        auto x = features.lowLevel;
        int layer = 0;
        for (auto& module : *m_body) {
            x = module.forward<torch::Tensor>(x);
            if (layer++ == m_middleLayer)
                features.middle = x;
        }
        features.deep = x;
        return features;
    }

    GraphFeatures writeGraph(GraphWriter& writer, const GraphValue& images)
    {
        GraphFeatures features;
        features.lowLevel = writer.sequential(images, *m_stem);
        auto x = features.lowLevel;
        int layer = 0;
        for (auto& child : m_body->children()) {
            x = writer.layer(x, *child);
            if (layer++ == m_middleLayer)
                features.middle = x;
        }
        features.deep = x;
        return features;
    }

    virtual int lowLevelChannels() const = 0;
    virtual int deepChannels() const = 0;
    // The stride-16 features' width; 0 where the encoder hands none out.
    int middleChannels() const { return m_middleChannels; }

protected:
    // Registers them as "stem" and "body", in that order (pretrained weights load by position).
    void setStages(torch::nn::Sequential stem, torch::nn::Sequential body)
    {
        m_stem = register_module("stem", std::move(stem));
        m_body = register_module("body", std::move(body));
    }

    // The body's layer (0-based) whose output is the stride-16 features, and their width.
    void setMiddleLayer(int layer, int channels)
    {
        m_middleLayer = layer;
        m_middleChannels = channels;
    }

private:
    int m_middleLayer = -1;
    int m_middleChannels = 0;
    torch::nn::Sequential m_stem{nullptr};
    torch::nn::Sequential m_body{nullptr};
};

}  // namespace models
}  // namespace segstudio::engine
