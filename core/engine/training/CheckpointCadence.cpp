#include "CheckpointCadence.h"

#include <algorithm>

namespace segstudio::engine {
inline namespace training {

CheckpointCadence::CheckpointCadence(double intervalSeconds, bool onGpu)
    : m_configured(intervalSeconds)
    , m_onGpu(onGpu)
{
}

void CheckpointCadence::started(double now)
{
    m_lastAt = now;
}

void CheckpointCadence::written(double now, double writeSeconds)
{
    m_lastAt = now;
    m_lastWriteSeconds = std::max(0.0, writeSeconds);
}

double CheckpointCadence::interval() const
{
    if (m_configured >= 0)
        return m_configured;
    // Training time between writes such that writes are kWriteShare of the whole.
    const double byWriteTime = m_lastWriteSeconds * (1.0 - kWriteShare) / kWriteShare;
    return std::max(m_onGpu ? kGpuMinimumSeconds : 0.0, byWriteTime);
}

bool CheckpointCadence::due(double now) const
{
    return now - m_lastAt >= interval();
}

}  // namespace training
}  // namespace segstudio::engine
