#pragma once

#include "TrainConfig.h"

#include "engine/distributed/GradientSync.h"
#include "engine/models/SegmentationModel.h"

#include <memory>

namespace segstudio::pack { class PackReader; }

namespace segstudio::engine {
inline namespace distributed {
class Communicator;
class Replicas;
}  // namespace distributed
inline namespace training {

// A data-parallel rank joining its world before the first step (issue 65.1, out of Trainer):
// ranks that would train on different data must not start (every rank's pack checksums against
// rank 0's); every replica starts from rank 0's parameters and buffers (after a restore and the
// channels-last conversion), as DistributedDataParallel does on construction; and the gradients
// are synchronised from then on (bucketed, or plain with --gradient-sync plain).
// Guarantees: one process (no communicator) joins nothing and gets no sync; EngineError naming
// the pack that differs, with how many ranks hold another.
class WorldJoin {
public:
    static std::unique_ptr<GradientSync> join(Communicator* communicator, const Replicas& replicas,
                                              SegmentationModelImpl& model, const TrainConfig& config,
                                              const pack::PackReader& train, const pack::PackReader* val);
    static void requireSamePacks(const Replicas& replicas, const TrainConfig& config, const pack::PackReader& train,
                                 const pack::PackReader* val);
};

}  // namespace training
}  // namespace segstudio::engine
