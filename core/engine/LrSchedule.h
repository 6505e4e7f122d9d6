#pragma once

#include <cstdint>

namespace segstudio::engine {

struct TrainConfig;

// Learning rate as a pure function of the iteration, so a resumed run needs no scheduler state:
// linear warm-up over the first warmupIterations (-1: a tenth of the run, at most 100), then none (constant), step (multiply by
// dropFactor every dropPeriod epochs) or cosine (from learningRate down to minLearningRate).
class LrSchedule {
public:
    LrSchedule(const TrainConfig& config, std::int64_t iterationsPerEpoch, std::int64_t totalIterations);

    double at(std::int64_t iteration) const;

private:
    double m_base;
    double m_min;
    int m_kind;  // 0 none, 1 step, 2 cosine
    std::int64_t m_dropEvery;
    double m_dropFactor;
    std::int64_t m_warmup;
    std::int64_t m_total;
};

}  // namespace segstudio::engine
