#pragma once

#include "CheckpointSnapshot.h"
#include "TrainConfig.h"

#include "engine/models/SegmentationModel.h"

#include <torch/torch.h>

#include <memory>

namespace segstudio::engine {
inline namespace training {

// The network a run trains, made from its configuration (issue 65.1, out of Trainer): the
// registry's model seeded by the run's seed, the encoder's pretrained weights when asked, on the
// device, and a new run's --init-from weights, checked first against the run's model and class
// count so that a wrong file is named with what differs. And the CPU copy the checkpoint writer
// snapshots into, made without moving the run's random stream.
// Guarantees: EngineError naming the checkpoint and the difference for an --init-from that does
// not fit; the same configuration gives the same initial weights.
class TrainingModel {
public:
    // config.classes must be set (from the packs). resuming: --init-from is not applied (the
    // checkpoint's own weights come next).
    static std::shared_ptr<SegmentationModelImpl> build(const TrainConfig& config, torch::Device device, bool resuming);
    static std::unique_ptr<CheckpointSnapshot> snapshotFor(const TrainConfig& config, torch::Device device);

private:
    static void initialiseFrom(SegmentationModelImpl& model, const TrainConfig& config, torch::Device device);
};

}  // namespace training
}  // namespace segstudio::engine
