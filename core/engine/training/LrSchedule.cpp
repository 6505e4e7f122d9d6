#include "LrSchedule.h"

#include "TrainConfig.h"

#include <algorithm>
#include <cmath>

namespace segstudio::engine {
inline namespace training {

namespace {

// A tenth of the run, at most 100 iterations.
std::int64_t automaticWarmup(std::int64_t totalIterations)
{
    return std::min<std::int64_t>(100, std::max<std::int64_t>(1, totalIterations) / 10);
}

}  // namespace

LrSchedule::LrSchedule(const TrainConfig& config, std::int64_t iterationsPerEpoch, std::int64_t totalIterations)
    : m_base(config.learningRate)
    , m_min(config.minLearningRate)
    , m_kind(config.schedule == "step" ? 1 : config.schedule == "cosine" ? 2 : 0)
    , m_dropEvery(std::max<std::int64_t>(1, std::int64_t(config.dropPeriod) * iterationsPerEpoch))
    , m_dropFactor(config.dropFactor)
    , m_warmup(config.warmupIterations >= 0 ? config.warmupIterations : automaticWarmup(totalIterations))
    , m_automaticWarmup(config.warmupIterations < 0)
    , m_total(std::max<std::int64_t>(1, totalIterations))
{
}

double LrSchedule::progress(std::int64_t iteration) const
{
    if (iteration >= m_total)
        return 1.0;
    const double span = double(std::max<std::int64_t>(1, m_total - m_from));
    return std::clamp(m_fromProgress + (1.0 - m_fromProgress) * double(iteration - m_from) / span, 0.0, 1.0);
}

void LrSchedule::replan(std::int64_t from, std::int64_t totalIterations)
{
    m_fromProgress = progress(from);
    m_from = from;
    m_total = std::max<std::int64_t>(from + 1, totalIterations);
    if (m_automaticWarmup && from < m_warmup / 2)
        m_warmup = std::max<std::int64_t>(from + 1, automaticWarmup(m_total));
}

void LrSchedule::setAnchor(const Anchor& anchor)
{
    m_from = anchor.from;
    m_fromProgress = anchor.progress;
    m_total = std::max<std::int64_t>(1, anchor.total);
    m_warmup = anchor.warmup;
}

double LrSchedule::at(std::int64_t iteration) const
{
    double lr = m_base;
    if (m_kind == 1) {
        lr = m_base * std::pow(m_dropFactor, double(iteration / m_dropEvery));
    } else if (m_kind == 2) {
        lr = m_min + (m_base - m_min) * 0.5 * (1.0 + std::cos(M_PI * progress(iteration)));
    }
    if (iteration < m_warmup)
        lr *= double(iteration + 1) / double(m_warmup);
    return lr;
}

}  // namespace training
}  // namespace segstudio::engine
