#pragma once

#include "TrainConfig.h"

#include "engine/input/Augmenter.h"
#include "engine/input/BatchLoader.h"
#include "engine/input/CropSchedule.h"
#include "engine/input/DeviceResidentPack.h"

#include <torch/torch.h>

#include <memory>
#include <string>

namespace segstudio::pack { class PackReader; }

namespace segstudio::engine {
inline namespace training {

// What feeds a run's steps (issue 65.1, out of Trainer): the augmenter and the crop schedule from
// the configuration, the training pack uploaded to the device when it fits there (on CUDA, a pack
// larger than a third of the card stays on the host), and the batch loader, which then copies
// only what the device does not hold (the labels still, for class-uniform crops).
// Requirements: the pack outlives the loader and the resident copy.
struct TrainingInput {
    std::unique_ptr<Augmenter> augmenter;
    std::unique_ptr<CropSchedule> crops;
    std::unique_ptr<DeviceResidentPack> resident;  // null: batches come from the host loader
    std::unique_ptr<BatchLoader> loader;
    std::string note;  // where the data is, and why (said when the session starts)

    static TrainingInput make(const TrainConfig& config, const pack::PackReader& train, torch::Device device, int rank,
                              int world);
    static BatchLoader::Options loaderOptions(const TrainConfig& config, torch::Device device, int rank, int world,
                                              bool resident);
};

}  // namespace training
}  // namespace segstudio::engine
