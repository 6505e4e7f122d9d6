#pragma once

#include <utility>

namespace segstudio::engine {
inline namespace input {

// Progressive crop sizes: training starts on crops of startScale of the configured crop's sides
// and grows them in equal stages of the run's progress (the learning-rate schedule's, 0 to 1) to
// the full crop, which the last stage trains on (EfficientNetV2's progressive learning, without
// its changing regularisation). Early steps on small crops cost less, so a time budget buys more
// of them; the model ends on the crop it was configured for.
// Guarantees: sides are multiples of 8 (at least 32, at most the full crop's), non-decreasing in
// progress; startScale 1 (or no crop) gives the full crop throughout; relativeCost is a step's
// time against a full-crop step's (kFixedCost + (1 - kFixedCost) x the pixel share), and
// meanCost its average over the progress still ahead.
class CropSchedule {
public:
    static constexpr int kStages = 4;
    // The share of a full-crop step that does not shrink with the crop (the optimiser's pass, the
    // per-layer overheads, small feature maps' poorer use of the cores): on two cores, with the
    // default model, a 144x192 step took 0.70 of a 180x240 step for 0.64 of its pixels, and an
    // 88x120 step 0.44 for 0.24 of them (0.17 and 0.26 by this model).
    static constexpr double kFixedCost = 0.25;

    CropSchedule(int fullHeight, int fullWidth, double startScale);

    bool progressive() const { return m_startScale < 1.0 && m_fullHeight > 0 && m_fullWidth > 0; }
    std::pair<int, int> cropAt(double progress) const;  // height, width
    double relativeCost(double progress) const;
    // The average of relativeCost over progress in [from, 1]: what the steps still ahead cost,
    // each against a full-crop step, for the time-budget planner.
    double meanCost(double from) const;

private:
    int stageAt(double progress) const;
    std::pair<int, int> cropOfStage(int stage) const;
    double costOfStage(int stage) const;

    int m_fullHeight;
    int m_fullWidth;
    double m_startScale;
};

}  // namespace input
}  // namespace segstudio::engine
