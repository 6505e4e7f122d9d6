#pragma once

#include "ClassPriorCorrection.h"
#include "engine/models/SegmentationModel.h"

#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace inference {

// A model rebuilt from a checkpoint alone (name and classes from its state), in eval mode.
struct LoadedModel {
    std::shared_ptr<SegmentationModelImpl> model;
    std::string name;
    std::vector<std::string> classNames;
    std::vector<double> classWeights;
    // What predictions add to the logits before their argmax (from classWeights).
    ClassPriorCorrection correction;
    // The image size it was trained on (its packs'); 0 when the checkpoint does not say.
    int trainedHeight = 0;
    int trainedWidth = 0;
    // The precision the forward pass runs in, as amp names it (inferencePrecision): "none" is fp32.
    std::string amp = "none";
    bool channelsLast = false;  // weights and inputs in NHWC (with bf16: oneDNN's fast path)

    // Runs the model in `precision` (auto | fp32 | bf16, inferencePrecision) on `device`; bf16 in
    // channels-last, where oneDNN's bf16 convolutions are fastest (docs/BENCHMARKS.md: 83 ms fp32,
    // 63 ms bf16, 55 ms bf16 channels-last for the default model at 360x480 on AMX).
    void setPrecision(const std::string& precision, torch::Device device);

    static LoadedModel fromCheckpoint(const std::string& checkpoint, torch::Device device);

    // The model's logits with the correction added: what predictions take their argmax of.
    // Computed in `amp` (autocast), returned in fp32.
    torch::Tensor decisionLogits(const torch::Tensor& input) const;
};

}  // namespace inference
}  // namespace segstudio::engine
