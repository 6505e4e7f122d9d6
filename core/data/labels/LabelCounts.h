#pragma once

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>

namespace segstudio::data {
inline namespace labels {

// Pixel count per label value (index 255 = unlabelled), for the classes panel and the browser's
// "labelled fraction".
using LabelCounts = std::array<std::int64_t, 256>;

LabelCounts countLabels(const cv::Mat& labels);
double labelledFraction(const LabelCounts& counts);  // 0 for an empty map

}  // namespace labels
}  // namespace segstudio::data
