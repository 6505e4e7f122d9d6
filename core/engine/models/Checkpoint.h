#pragma once

#include "SegmentationModel.h"

#include <nlohmann/json.hpp>

#include <string>

namespace segstudio::engine {
inline namespace models {

// One checkpoint file: model parameters and buffers, the optimiser state (optional: the trainer
// keeps it in last.pt, which resumes, not in best.pt), the CPU RNG state and a JSON state
// (training position, best score, the run's config, class names), so a file alone is enough to
// evaluate or predict, and one with the optimiser state to resume.
// Guarantees: save() is atomic (run::writeFileAtomically): a crash leaves the previous checkpoint
//   intact, a failed write (a full disk) throws run::FileError naming the file. save() stores a
//   checksum of every tensor and the state; load() refuses a file whose bytes changed since
//   (EngineError naming it). Checkpoints written before the checksum load without the check.
class Checkpoint {
public:
    // average: the run's weight average (WeightAverage::tensors()), kept for resuming;
    // cpuRngState: the CPU generator's state to store (null: its state now).
    static void save(const std::string& path, SegmentationModelImpl& model, const torch::optim::Optimizer* optimizer,
                     const nlohmann::json& state, const std::vector<torch::Tensor>* average = nullptr,
                     const torch::Tensor* cpuRngState = nullptr);
    // Returns the JSON state; throws EngineError naming the file when it is missing or unreadable.
    static nlohmann::json readState(const std::string& path);
    // Loads parameters (and optimiser state when optimizer is not null) onto device, restores the
    // CPU RNG state, and returns the JSON state. With average not null, it receives the saved
    // weight average (left empty when the file has none).
    static nlohmann::json load(const std::string& path, SegmentationModelImpl& model, torch::optim::Optimizer* optimizer,
                               torch::Device device, std::vector<torch::Tensor>* average = nullptr);
    // Loads parameters and buffers only, for a new run that starts from another's weights
    // (fine-tuning): no optimiser state, and the RNG is left alone, so the new run's seed still
    // decides its shuffle and augmentation. Returns the JSON state.
    static nlohmann::json loadWeights(const std::string& path, SegmentationModelImpl& model, torch::Device device);
};

}  // namespace models
}  // namespace segstudio::engine
