#include "CropSchedule.h"

#include <algorithm>
#include <cmath>

namespace segstudio::engine {
inline namespace input {

namespace {

// A side scaled and rounded to a multiple of 8 (the stride of the stem's and the first stages'
// convolutions stay exact), at least 32 and at most the full side.
int scaledSide(int full, double scale)
{
    const int side = int(std::lround(double(full) * scale / 8.0)) * 8;
    return std::clamp(side, std::min(32, full), full);
}

}  // namespace

CropSchedule::CropSchedule(int fullHeight, int fullWidth, double startScale)
    : m_fullHeight(fullHeight), m_fullWidth(fullWidth), m_startScale(std::clamp(startScale, 0.0, 1.0))
{
}

int CropSchedule::stageAt(double progress) const
{
    return std::clamp(int(std::floor(progress * kStages)), 0, kStages - 1);
}

std::pair<int, int> CropSchedule::cropOfStage(int stage) const
{
    if (!progressive())
        return {m_fullHeight, m_fullWidth};
    const double scale = m_startScale + (1.0 - m_startScale) * double(stage) / double(kStages - 1);
    return {scaledSide(m_fullHeight, scale), scaledSide(m_fullWidth, scale)};
}

double CropSchedule::costOfStage(int stage) const
{
    if (!progressive())
        return 1.0;
    const auto [height, width] = cropOfStage(stage);
    const double pixelShare = double(height) * double(width) / (double(m_fullHeight) * double(m_fullWidth));
    return kFixedCost + (1.0 - kFixedCost) * pixelShare;
}

std::pair<int, int> CropSchedule::cropAt(double progress) const
{
    return cropOfStage(stageAt(progress));
}

double CropSchedule::relativeCost(double progress) const
{
    return costOfStage(stageAt(progress));
}

double CropSchedule::meanCost(double from) const
{
    from = std::clamp(from, 0.0, 1.0);
    if (!progressive() || from >= 1.0)
        return relativeCost(from);
    double integral = 0.0;
    for (int stage = stageAt(from); stage < kStages; ++stage) {
        const double begin = std::max(from, double(stage) / kStages);
        const double end = double(stage + 1) / kStages;
        integral += (end - begin) * costOfStage(stage);
    }
    return integral / (1.0 - from);
}

}  // namespace input
}  // namespace segstudio::engine
