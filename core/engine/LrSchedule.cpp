#include "LrSchedule.h"

#include "TrainConfig.h"

#include <algorithm>
#include <cmath>

namespace segstudio::engine {

LrSchedule::LrSchedule(const TrainConfig& config, std::int64_t iterationsPerEpoch, std::int64_t totalIterations)
    : m_base(config.learningRate)
    , m_min(config.minLearningRate)
    , m_kind(config.schedule == "step" ? 1 : config.schedule == "cosine" ? 2 : 0)
    , m_dropEvery(std::max<std::int64_t>(1, std::int64_t(config.dropPeriod) * iterationsPerEpoch))
    , m_dropFactor(config.dropFactor)
    , m_warmup(config.warmupIterations >= 0 ? config.warmupIterations
                                            : std::min<std::int64_t>(100, std::max<std::int64_t>(1, totalIterations) / 10))
    , m_total(std::max<std::int64_t>(1, totalIterations))
{
}

double LrSchedule::at(std::int64_t iteration) const
{
    double lr = m_base;
    if (m_kind == 1) {
        lr = m_base * std::pow(m_dropFactor, double(iteration / m_dropEvery));
    } else if (m_kind == 2) {
        const double progress = std::min(1.0, double(iteration) / double(m_total));
        lr = m_min + (m_base - m_min) * 0.5 * (1.0 + std::cos(M_PI * progress));
    }
    if (iteration < m_warmup)
        lr *= double(iteration + 1) / double(m_warmup);
    return lr;
}

}  // namespace segstudio::engine
