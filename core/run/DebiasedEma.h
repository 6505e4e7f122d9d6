#pragma once

#include <vector>

namespace segstudio::run {

// TensorBoard's smoothing of a noisy curve: an exponential moving average whose start-up bias
// towards 0 is divided out (as Adam does its moments), so the first smoothed points sit on the
// data instead of rising from zero. weight 0 = no smoothing, towards 1 = smoother.
// Guarantees: a non-finite value passes through as it is and does not disturb the average.
class DebiasedEma {
public:
    explicit DebiasedEma(double weight = 0.6) : m_weight(weight) {}

    double add(double value);  // the smoothed value at this point
    void reset();
    double weight() const { return m_weight; }

    static std::vector<double> smooth(const std::vector<double>& values, double weight);

private:
    double m_weight;
    double m_last = 0.0;
    double m_decay = 1.0;  // weight^count: the share of the zero start still in m_last
};

}  // namespace segstudio::run
