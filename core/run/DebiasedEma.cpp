#include "DebiasedEma.h"

#include <cmath>

namespace segstudio::run {

double DebiasedEma::add(double value)
{
    if (!std::isfinite(value))
        return value;
    m_last = m_last * m_weight + (1.0 - m_weight) * value;
    m_decay *= m_weight;
    const double debias = 1.0 - m_decay;
    return debias > 0.0 ? m_last / debias : value;  // weight 1: no smoothing is possible
}

void DebiasedEma::reset()
{
    m_last = 0.0;
    m_decay = 1.0;
}

std::vector<double> DebiasedEma::smooth(const std::vector<double>& values, double weight)
{
    DebiasedEma ema(weight);
    std::vector<double> smoothed;
    smoothed.reserve(values.size());
    for (double value : values)
        smoothed.push_back(ema.add(value));
    return smoothed;
}

}  // namespace segstudio::run
