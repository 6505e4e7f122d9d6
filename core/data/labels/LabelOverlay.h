#pragma once

#include "ClassSchema.h"

#include <opencv2/core.hpp>

namespace segstudio::data {
inline namespace labels {

// How SegStudio draws labels over a photo outside the editor (thumbnails, `predict` overlays):
// the class colour blended at `opacity` where a pixel is labelled; unlabelled pixels keep the
// photo. rgb CV_8UC3, labels CV_8UC1 of its size.
cv::Mat blendLabels(const cv::Mat& rgb, const cv::Mat& labels, const ClassSchema& schema, double opacity);

// The photo fitted into maxWidth x maxHeight (aspect kept, area averaging), with its labels
// (scaled by nearest neighbour) blended on top when labels is not empty.
cv::Mat thumbnailOf(const cv::Mat& rgb, const cv::Mat& labels, const ClassSchema& schema, int maxWidth, int maxHeight,
                    double opacity);

}  // namespace labels
}  // namespace segstudio::data
