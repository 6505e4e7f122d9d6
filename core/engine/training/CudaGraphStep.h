#pragma once

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>

namespace segstudio::engine {
inline namespace training {

// The forward and backward passes of a training step captured once as a CUDA graph
// (at::cuda::CUDAGraph) and replayed for every later batch of the same shape: one launch instead of
// the ~1,000 kernel launches of a small-batch step, which left an H200 idle three quarters of the
// time at batch 8 (docs/SCALING.md, "Side by side"). The batch is copied into the graph's own input
// tensors, and the loss, the logits and the parameters' gradients are the graph's own tensors,
// rewritten by each replay. The optimiser, the augmentation and the verdicts stay outside.
// Requirements: a CUDA device; every step's pass is the same function of its input and labels
// (one micro-batch, no gradient hooks, no host decision inside it); between steps nothing sets
// the gradients to none or replaces a parameter's or buffer's storage.
// Guarantees:
// - A new shape (a progressive crop's next size) captures a new graph, the old one released first.
// - The warm-up passes before a capture (cuDNN's choices, lazy initialisation, as PyTorch's CUDA
//   graph notes ask) leave no trace: the model's buffers (batch-norm statistics) are put back and
//   their gradients dropped, so the first replayed step is the step an eager run would take.
// - Outside a CUDA build, run() throws and declines() says so.
class CudaGraphStep {
public:
    struct Outputs {
        torch::Tensor logits;  // detached
        torch::Tensor loss;    // the pass's loss, 0-dim float, detached
    };
    // Forward, loss and backward of one batch (gradients written into the parameters' grads).
    using Pass = std::function<Outputs(const torch::Tensor& input, const torch::Tensor& labels)>;

    // Why a step with these settings cannot be captured here; empty when it can.
    static std::string declines(const torch::Device& device, int accumulate, bool gradientSync, bool lossScaled);

    explicit CudaGraphStep(torch::nn::Module& model);
    ~CudaGraphStep();
    CudaGraphStep(const CudaGraphStep&) = delete;
    CudaGraphStep& operator=(const CudaGraphStep&) = delete;

    // pass(input, labels), replayed from the graph of their shapes (captured now if there is none).
    // The outputs are overwritten by the next run(): copy what must outlive it.
    Outputs run(const torch::Tensor& input, const torch::Tensor& labels, const Pass& pass);
    int captures() const { return m_captures; }
    double lastCaptureSeconds() const { return m_lastCaptureSeconds; }

private:
    struct Graph;
    void capture(const torch::Tensor& input, const torch::Tensor& labels, const Pass& pass);
    void dropGradients();

    torch::nn::Module& m_model;
    std::unique_ptr<Graph> m_graph;
    int m_captures = 0;
    double m_lastCaptureSeconds = 0.0;
};

}  // namespace training
}  // namespace segstudio::engine
