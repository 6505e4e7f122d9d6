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

    static LoadedModel fromCheckpoint(const std::string& checkpoint, torch::Device device);

    // The model's logits with the correction added: what predictions take their argmax of.
    torch::Tensor decisionLogits(const torch::Tensor& input) const { return correction.apply(model->forward(input)); }
};

}  // namespace inference
}  // namespace segstudio::engine
