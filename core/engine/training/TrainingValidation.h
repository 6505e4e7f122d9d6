#pragma once

#include "TrainConfig.h"
#include "TrainingPrecision.h"

#include "engine/inference/SegmentationMetrics.h"
#include "engine/inference/Validation.h"

#include <torch/torch.h>

#include <vector>

namespace segstudio::engine {
inline namespace distributed { class Communicator; }
inline namespace training {

// How a run validates and what counts as its best (issue 65.1, out of Trainer): the training's
// precision and layout, the class-prior correction predictions use, one whole image at a time on
// a CPU (a batch of 8 at 360x480 overflows the caches: 13.3 s for CamVid val against 8.7 s one by
// one, docs/BENCHMARKS.md) and the training batch on a GPU; and a validation is a new best only
// with a finite loss (diverged weights may still beat an untrained model's mIoU: issue 46.10).
class TrainingValidation {
public:
    static ValidationSettings settingsFor(const TrainConfig& config, torch::Device device,
                                          const TrainingPrecision& precision, const std::vector<double>& classWeights,
                                          Communicator* communicator);
    static bool isNewBest(const SegmentationMetrics& metrics, double bestMeanIoU);
};

}  // namespace training
}  // namespace segstudio::engine
