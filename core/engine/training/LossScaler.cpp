#include "LossScaler.h"

namespace segstudio::engine {
inline namespace training {

LossScaler::LossScaler(bool enabled, double initialScale)
    : m_enabled(enabled)
    , m_scale(enabled ? initialScale : 1.0)
{
}

bool LossScaler::unscaleAndCheck(const std::vector<torch::Tensor>& parameters)
{
    if (!m_enabled)
        return true;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> finite;
    for (const auto& parameter : parameters) {
        if (!parameter.grad().defined())
            continue;
        parameter.mutable_grad().mul_(1.0 / m_scale);
        finite.push_back(torch::isfinite(parameter.grad()).all());
    }
    const bool ok = finite.empty() || torch::stack(finite).all().item<bool>();
    if (!ok) {
        m_scale *= 0.5;
        m_cleanSteps = 0;
    } else if (++m_cleanSteps >= 2000) {
        m_scale *= 2.0;
        m_cleanSteps = 0;
    }
    return ok;
}

}  // namespace training
}  // namespace segstudio::engine
