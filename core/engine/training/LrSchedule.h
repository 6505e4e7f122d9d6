#pragma once

#include <cstdint>

namespace segstudio::engine {
inline namespace training { struct TrainConfig; }

inline namespace training {
// Learning rate as a pure function of the iteration, so a resumed run needs no scheduler state:
// linear warm-up over the first warmupIterations (-1: a tenth of the run, at most 100), then none (constant), step (multiply by
// dropFactor every dropPeriod epochs) or cosine (from learningRate down to minLearningRate).
// A time-budgeted run re-lays the cosine when its plan changes (replan); its anchor is then part
// of the run's state, saved in checkpoints.
class LrSchedule {
public:
    LrSchedule(const TrainConfig& config, std::int64_t iterationsPerEpoch, std::int64_t totalIterations);

    double at(std::int64_t iteration) const;
    // How far the run is at this iteration, 0-1 (the cosine's progress, whatever the kind): what
    // progressive crops (CropSchedule) follow, so they move with every re-plan as the rate does.
    double progress(std::int64_t iteration) const;

    // The run will now end at totalIterations: the cosine's progress reached at `from` is kept
    // (the rate does not jump) and what is left of it is spread over the new length, so the rate
    // reaches its floor exactly at the new end. An automatic warm-up not yet begun to matter is
    // fitted to the new length too.
    void replan(std::int64_t from, std::int64_t totalIterations);

    struct Anchor {
        std::int64_t from = 0;
        double progress = 0.0;
        std::int64_t total = 1;
        std::int64_t warmup = 0;
    };
    Anchor anchor() const { return {m_from, m_fromProgress, m_total, m_warmup}; }
    void setAnchor(const Anchor& anchor);

private:

    double m_base;
    double m_min;
    int m_kind;  // 0 none, 1 step, 2 cosine
    std::int64_t m_dropEvery;
    double m_dropFactor;
    std::int64_t m_warmup;
    bool m_automaticWarmup;
    std::int64_t m_total;
    std::int64_t m_from = 0;       // the cosine's progress is m_fromProgress at m_from and 1 at m_total
    double m_fromProgress = 0.0;
};

}  // namespace training
}  // namespace segstudio::engine
