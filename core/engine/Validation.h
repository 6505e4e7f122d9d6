#pragma once

#include "SegmentationLoss.h"
#include "SegmentationMetrics.h"
#include "SegmentationModel.h"
#include "pack/PackReader.h"

#include <string>

namespace segstudio::engine {

struct ValidationSettings {
    torch::Device device = torch::kCPU;
    int batchSize = 4;
    std::string amp = "none";
    bool channelsLast = false;
    bool pinMemory = false;
};

// Scores a model on every record of a pack, in eval mode without gradients; the confusion matrix
// stays on the device. The model's train/eval mode is restored afterwards.
SegmentationMetrics validate(SegmentationModelImpl& model, const pack::PackReader& pack, const SegmentationLoss& loss,
                             const ValidationSettings& settings);

}  // namespace segstudio::engine
