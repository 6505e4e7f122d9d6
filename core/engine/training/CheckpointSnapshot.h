#pragma once

#include "engine/models/SegmentationModel.h"

#include <nlohmann/json.hpp>

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace training {

// What one checkpoint holds, copied to host memory on the training thread in the time of a memory
// copy (a device-to-pinned-host copy on a GPU), so that serialising, checksumming and the durable
// write (Checkpoint::save) can run on another thread while training goes on. The copies live in a
// model and an optimiser of the trained kinds (their structure gives the file the same layout as
// Checkpoint::save of the live ones), reused from one capture to the next.
// Requirements: the live model and optimiser keep their parameters (number, shapes) between
// captures; capture() and save() are not called at the same time (CheckpointWriter keeps one in
// flight).
class CheckpointSnapshot {
public:
    // model: a model of the trained architecture on the CPU, whose weights are overwritten;
    // optimizer: an optimiser of the trained kind over its parameters (null: snapshots never hold
    // optimiser state); pinned: page-locked copies, for live tensors on a CUDA device.
    CheckpointSnapshot(std::shared_ptr<SegmentationModelImpl> model, std::unique_ptr<torch::optim::Optimizer> optimizer,
                       bool pinned);
    ~CheckpointSnapshot();

    // Whether capture() can copy this optimiser's state (SGD, Adam, AdamW and its subclasses).
    static bool canCopy(const torch::optim::Optimizer& optimizer);

    // Copies the live weights, the optimiser's state (optimizer not null), the weight average
    // (average not null), the CPU RNG and the JSON state; returns when the copies have landed.
    void capture(SegmentationModelImpl& model, const torch::optim::Optimizer* optimizer, nlohmann::json state,
                 const std::vector<torch::Tensor>* average);
    // Writes what was captured to path as Checkpoint::save does (atomic, checksummed).
    void save(const std::string& path) const;

private:
    void copyModel(SegmentationModelImpl& live);
    void copyOptimizer(const torch::optim::Optimizer& live);

    std::shared_ptr<SegmentationModelImpl> m_model;
    std::unique_ptr<torch::optim::Optimizer> m_optimizer;
    bool m_pinned;
    bool m_holdsOptimizer = false;
    bool m_holdsAverage = false;
    std::vector<torch::Tensor> m_average;
    nlohmann::json m_state;
    torch::Tensor m_cpuRng;
};

}  // namespace training
}  // namespace segstudio::engine
