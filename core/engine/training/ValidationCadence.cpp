#include "ValidationCadence.h"

#include <algorithm>

namespace segstudio::engine {
inline namespace training {

bool ValidationCadence::dueAfterEpoch(int epochsDone, int period) const
{
    return epochsDone - m_lastEpoch >= std::max(1, period);
}

}  // namespace training
}  // namespace segstudio::engine
