#pragma once

#include "CudaGraphStep.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace segstudio::engine {
inline namespace input { class Augmenter; }
inline namespace input { class CropSchedule; }
inline namespace input { class DeviceResidentPack; }
inline namespace distributed { class GradientSync; }
inline namespace training { class LossScaler; }
inline namespace training { class LrSchedule; }
inline namespace inference { class SegmentationLoss; }
inline namespace models { class SegmentationModelImpl; }
inline namespace training { class WeightAverage; }
inline namespace input { struct HostBatch; }

inline namespace training {
// One optimiser step of the training loop: the batch onto the device (or gathered from the
// device-resident pack), the crop the run's progress asks for, the batch's augmentation, the
// learning rate of its position, forward and backward passes over its micro-batches (gradients
// averaged over the ranks by the GradientSync), the verdict on its loss, the optimiser's step and
// the weight average's update.
// Requirements: one thread; the parts outlive it; in data parallel every rank steps together.
// Guarantees:
// - A batch's augmentation depends only on (seed, epoch, batch, rank): a resumed run redraws it.
// - Micro-batch k of accumulate takes samples k, k + accumulate, ..., each weighted 1/accumulate:
//   rank r of a data-parallel run trains exactly micro-batch r of one process with
//   accumulate = world, and with the same labelled pixels in each part the gradient is the
//   whole batch's.
// - Gradients are set to none before the passes, so after a step they are that step's alone (with
//   CUDA graphs each replay rewrites the graph's own gradient tensors instead).
// - With cudaGraphs, on a CUDA device and where CudaGraphStep::declines() nothing, the forward and
//   backward passes are replayed from a CUDA graph; the step's arithmetic is the eager step's. A
//   capture that fails is said and the run goes on eagerly.
// - The optimiser steps only after hooks.judge returned (it throws for a diverged loss) and the
//   loss scaler found the gradients finite.
class TrainingStep {
public:
    struct Settings {
        torch::Device device{torch::kCPU};
        std::uint64_t seed = 1;
        int rank = 0;
        double learningRateFactor = 1.0;  // the world size with scaleLearningRate, else 1
        int accumulate = 1;               // micro-batches per step
        std::string amp = "none";
        bool channelsLast = false;
        bool cudaGraphs = false;  // capture the passes as a CUDA graph where the step allows it
        std::int64_t debugNanAtIteration = -1;  // tests: the loss of this step made NaN
    };
    // What the trainer owns and the step uses.
    struct Parts {
        SegmentationModelImpl& model;
        torch::optim::Optimizer& optimizer;
        const SegmentationLoss& loss;
        Augmenter& augmenter;
        const LrSchedule& schedule;
        const CropSchedule& crops;
        LossScaler& scaler;
        WeightAverage* average = nullptr;             // a weight average to update after each step
        GradientSync* gradientSync = nullptr;         // data parallel
        const DeviceResidentPack* resident = nullptr;  // the batches' records are gathered from it
    };
    struct Hooks {
        // The step's mean loss (0-dim double, on the device) before the optimiser steps: the
        // trainer posts its verdict there and throws when the run diverged.
        std::function<void(const torch::Tensor& meanLoss)> judge;
        std::function<void(const std::string& line)> say;  // a change of crop
    };
    // Where the step is: the epoch, the finished steps before it, its place in the run's data.
    struct Place {
        int epoch = 0;
        std::int64_t iteration = 0;
        std::int64_t position = 0;
    };
    struct Result {
        torch::Tensor loss;  // the step's mean loss (0-dim double, on the device)
        // measureAccuracy: pixels right and labelled pixels of its last micro-batch (else 0).
        double hits = 0.0;
        double valid = 0.0;
    };

    TrainingStep(Settings settings, Parts parts, Hooks hooks);

    Result run(const HostBatch& batch, const Place& place, bool measureAccuracy);
    // The last step's cost against a full-crop step (progressive crops; 1 without).
    double cost() const { return m_cost; }

private:
    std::pair<torch::Tensor, torch::Tensor> onDevice(const HostBatch& batch) const;
    void fitCropToProgress(const Place& place);
    void setLearningRate(const Place& place);
    torch::Tensor passes(const torch::Tensor& input, const torch::Tensor& labels, bool measureAccuracy, Result& result);
    std::optional<CudaGraphStep::Outputs> graphedPass(const torch::Tensor& input, const torch::Tensor& labels);
    CudaGraphStep::Outputs forwardBackward(const torch::Tensor& input, const torch::Tensor& labels, double share);
    static void measure(const torch::Tensor& logits, const torch::Tensor& labels, Result& result);
    void say(const std::string& line) const;

    Settings m_settings;
    Parts m_parts;
    Hooks m_hooks;
    std::pair<int, int> m_cropInUse{0, 0};
    double m_cost = 1.0;
    std::unique_ptr<CudaGraphStep> m_graph;
    std::string m_unsaid;  // why graphs are off, for the first step to say
};

}  // namespace training
}  // namespace segstudio::engine
