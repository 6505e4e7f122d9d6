#pragma once

#include <torch/torch.h>

#include <vector>

namespace segstudio::engine {
inline namespace training {

// Dynamic loss scaling for fp16 autocast (LibTorch has no C++ GradScaler): the loss is multiplied
// by scale() before backward; unscaleAndCheck() divides the gradients back and says whether they are
// finite. An overflow skips the step and halves the scale; 2000 clean steps double it.
// Disabled (scale 1, always finite) for bf16 and fp32, which do not underflow like fp16.
class LossScaler {
public:
    explicit LossScaler(bool enabled, double initialScale = 65536.0);

    bool enabled() const { return m_enabled; }
    double scale() const { return m_scale; }
    void setScale(double scale) { m_scale = scale; }
    bool unscaleAndCheck(const std::vector<torch::Tensor>& parameters);

private:
    bool m_enabled;
    double m_scale;
    int m_cleanSteps = 0;
};

}  // namespace training
}  // namespace segstudio::engine
