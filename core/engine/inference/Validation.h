#pragma once

#include "ClassPriorCorrection.h"
#include "SegmentationLoss.h"
#include "SegmentationMetrics.h"
#include "engine/models/SegmentationModel.h"
#include "pack/PackReader.h"

#include <string>

namespace segstudio::engine {
inline namespace distributed { class Communicator; }

inline namespace inference {
struct ValidationSettings {
    torch::Device device = torch::kCPU;
    Communicator* communicator = nullptr;  // data parallel: this rank scores its share
    int batchSize = 4;
    std::string amp = "none";
    bool channelsLast = false;
    bool pinMemory = false;
    // Added to the logits before the argmax that the metrics count (the loss takes them as they are).
    ClassPriorCorrection correction;
};

// Scores a model on every record of a pack, in eval mode without gradients; the confusion matrix
// stays on the device. The model's train/eval mode is restored afterwards. With a communicator
// each rank scores every world-th record and the confusion matrices and loss sums are summed
// over the ranks, so every rank returns exactly what one process scoring the whole pack would:
// the loss is the mean of per-image losses, which does not depend on how images are batched.
SegmentationMetrics validate(SegmentationModelImpl& model, const pack::PackReader& pack, const SegmentationLoss& loss,
                             const ValidationSettings& settings);

}  // namespace inference
}  // namespace segstudio::engine
