#pragma once

#include "TrainConfig.h"

#include <torch/torch.h>

#include <string>

namespace segstudio::engine {
inline namespace training {

// The precision and memory layout a run trains in on its device: config.amp as this device and
// model compute it (resolveAmp), and channels-last where it pays.
// Guarantees: a new run that asks for a precision this device cannot compute (fp16 without CUDA,
// bf16 on a CPU without bf16 instructions or for a model without bf16 CPU kernels) is refused with
// an EngineError saying what to use instead; a resumed one (moved to another machine) goes on in
// fp32, and note says why.
struct TrainingPrecision {
    std::string amp = "none";  // none | bf16 | fp16
    bool channelsLast = false;  // parameters and inputs NHWC
    std::string note;           // why a resumed run trains in fp32; empty otherwise

    static TrainingPrecision choose(const TrainConfig& config, torch::Device device, bool resuming);
};

}  // namespace training
}  // namespace segstudio::engine
