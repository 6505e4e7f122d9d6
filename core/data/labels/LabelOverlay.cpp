#include "LabelOverlay.h"

#include "DataError.h"
#include "LabelClass.h"
#include "LabelMapIO.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>

namespace segstudio::data {
inline namespace labels {

cv::Mat blendLabels(const cv::Mat& rgb, const cv::Mat& labels, const ClassSchema& schema, double opacity)
{
    if (rgb.type() != CV_8UC3 || labels.type() != CV_8UC1 || rgb.size() != labels.size())
        throw DataError({}, "blending needs an RGB image and a label map of its size");
    cv::Mat blended;
    cv::addWeighted(rgb, 1.0 - opacity, colorize(labels, schema), opacity, 0.0, blended);
    cv::Mat result = rgb.clone();
    blended.copyTo(result, labels != kUnlabelled);
    return result;
}

cv::Mat thumbnailOf(const cv::Mat& rgb, const cv::Mat& labels, const ClassSchema& schema, int maxWidth, int maxHeight,
                    double opacity)
{
    const double scale = std::min(double(maxWidth) / rgb.cols, double(maxHeight) / rgb.rows);
    const cv::Size target(std::max(1, int(rgb.cols * scale + 0.5)), std::max(1, int(rgb.rows * scale + 0.5)));
    cv::Mat small;
    cv::resize(rgb, small, target, 0, 0, cv::INTER_AREA);
    if (labels.empty())
        return small;
    cv::Mat smallLabels;
    cv::resize(labels, smallLabels, target, 0, 0, cv::INTER_NEAREST);
    return blendLabels(small, smallLabels, schema, opacity);
}

}  // namespace labels
}  // namespace segstudio::data
