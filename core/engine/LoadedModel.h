#pragma once

#include "SegmentationModel.h"

#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {

// A model rebuilt from a checkpoint alone (name and classes from its state), in eval mode.
struct LoadedModel {
    std::shared_ptr<SegmentationModelImpl> model;
    std::string name;
    std::vector<std::string> classNames;
    std::vector<double> classWeights;
    // The image size it was trained on (its packs'); 0 when the checkpoint does not say.
    int trainedHeight = 0;
    int trainedWidth = 0;

    static LoadedModel fromCheckpoint(const std::string& checkpoint, torch::Device device);
};

}  // namespace segstudio::engine
