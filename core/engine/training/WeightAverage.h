#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace segstudio::engine {
inline namespace training {

// An exponential moving average of a model's weights (Polyak averaging), as timm's ModelEmaV2 and
// TensorFlow's ExponentialMovingAverage keep it: after each optimiser step every floating-point
// parameter and buffer moves towards the live one, shadow = d * shadow + (1 - d) * live, with
// d = min(decay, (1 + steps) / (10 + steps)) so the young average is not stuck at the random
// initialisation. Integer buffers (batch norm's counter) are copied. The averaged weights are
// smoother than the last step's, which is what validation and the best checkpoint should see.
// Requirements: the model's tensors keep their number, shapes and devices while it is averaged.
class WeightAverage {
public:
    WeightAverage(torch::nn::Module& model, double decay);

    double decay() const { return m_decay; }
    // The decay used at this step count (the warm-up above).
    double decayAt(std::int64_t steps) const;
    // Call after each optimiser step; steps counts the steps taken before this one.
    void update(std::int64_t steps);

    // Exchanges the model's weights with the averaged ones (call twice to undo; what changes in
    // the model meanwhile, e.g. buffers synchronised between ranks, stays with the average).
    void exchange();

    // The averaged tensors in the model's parameter-then-buffer order, for checkpoints.
    const std::vector<torch::Tensor>& tensors() const { return m_shadow; }
    // Sets the average from a checkpoint's tensors; throws std::invalid_argument on a count or
    // shape mismatch.
    void load(const std::vector<torch::Tensor>& tensors);

    // While alive, the model holds the averaged weights (validation, the best checkpoint).
    class Scope {
    public:
        explicit Scope(WeightAverage* average) : m_average(average) { if (m_average) m_average->exchange(); }
        ~Scope() { if (m_average) m_average->exchange(); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        WeightAverage* m_average;
    };

private:
    std::vector<torch::Tensor> m_live;    // the model's parameters and buffers (shared storage)
    std::vector<torch::Tensor> m_shadow;  // their averages
    double m_decay;
};

}  // namespace training
}  // namespace segstudio::engine
