#include "WeightAverage.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace segstudio::engine {
inline namespace training {

WeightAverage::WeightAverage(torch::nn::Module& model, double decay) : m_decay(decay)
{
    torch::NoGradGuard noGrad;
    for (const auto& parameter : model.parameters())
        m_live.push_back(parameter);
    for (const auto& buffer : model.buffers())
        m_live.push_back(buffer);
    for (const auto& tensor : m_live)
        m_shadow.push_back(tensor.detach().clone());
}

double WeightAverage::decayAt(std::int64_t steps) const
{
    return std::min(m_decay, (1.0 + double(steps)) / (10.0 + double(steps)));
}

void WeightAverage::update(std::int64_t steps)
{
    torch::NoGradGuard noGrad;
    const double d = decayAt(steps);
    for (std::size_t i = 0; i < m_live.size(); ++i) {
        if (m_shadow[i].is_floating_point())
            m_shadow[i].lerp_(m_live[i].detach(), 1.0 - d);
        else
            m_shadow[i].copy_(m_live[i]);
    }
}

void WeightAverage::exchange()
{
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < m_live.size(); ++i) {
        auto live = m_live[i].detach().clone();
        m_live[i].detach().copy_(m_shadow[i]);
        m_shadow[i].copy_(live);
    }
}

void WeightAverage::load(const std::vector<torch::Tensor>& tensors)
{
    if (tensors.size() != m_shadow.size())
        throw std::invalid_argument("the weight average holds " + std::to_string(tensors.size()) + " tensors, the model " +
                                    std::to_string(m_shadow.size()));
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].sizes() != m_shadow[i].sizes())
            throw std::invalid_argument("the weight average's tensor " + std::to_string(i) + " has another shape than the model's");
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        m_shadow[i].copy_(tensors[i]);
}

}  // namespace training
}  // namespace segstudio::engine
