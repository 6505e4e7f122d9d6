#include "RegionMask.h"

#include "WriteGuard.h"

#include <opencv2/imgproc.hpp>

namespace segstudio::paint {

namespace {

RegionMask floodMaskOnly(const cv::Mat& image, cv::Point seed, const cv::Scalar& diff, int connectivity)
{
    if (!cv::Rect(0, 0, image.cols, image.rows).contains(seed))
        return {};
    cv::Mat mask = cv::Mat::zeros(image.rows + 2, image.cols + 2, CV_8UC1);
    cv::Rect bounds;
    const int flags = connectivity | (255 << 8) | cv::FLOODFILL_MASK_ONLY | cv::FLOODFILL_FIXED_RANGE;
    // With FLOODFILL_MASK_ONLY OpenCV never writes the image, so the const_cast is safe and spares
    // a 12-megapixel copy per click.
    cv::floodFill(const_cast<cv::Mat&>(image), mask, seed, cv::Scalar(), &bounds, diff, diff, flags);
    return {bounds, mask(bounds + cv::Point(1, 1))};
}

}  // namespace

std::int64_t RegionMask::area() const
{
    return empty() ? 0 : cv::countNonZero(mask);
}

std::int64_t RegionMask::paint(cv::Mat& labels, std::uint8_t value, const WriteGuard& guard) const
{
    CV_Assert(labels.type() == CV_8UC1);
    const cv::Rect clipped = bounds & cv::Rect(0, 0, labels.cols, labels.rows);
    const auto& writable = guard.table();
    std::int64_t changed = 0;
    for (int y = clipped.y; y < clipped.br().y; ++y) {
        const std::uint8_t* in = mask.ptr<std::uint8_t>(y - bounds.y) - bounds.x;
        std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        for (int x = clipped.x; x < clipped.br().x; ++x) {
            if (in[x] && row[x] != value && writable[row[x]]) {
                row[x] = value;
                ++changed;
            }
        }
    }
    return changed;
}

RegionMask RegionMask::polygon(cv::Size imageSize, const std::vector<cv::Point>& points)
{
    if (points.size() < 3)
        return {};
    const cv::Rect bounds = cv::boundingRect(points) & cv::Rect({0, 0}, imageSize);
    if (bounds.empty())
        return {};
    cv::Mat mask = cv::Mat::zeros(bounds.size(), CV_8UC1);
    const std::vector<std::vector<cv::Point>> polygons{points};
    cv::fillPoly(mask, polygons, cv::Scalar(255), cv::LINE_8, 0, -bounds.tl());
    return {bounds, mask};
}

RegionMask RegionMask::floodLabel(const cv::Mat& labels, cv::Point seed, int connectivity)
{
    CV_Assert(labels.type() == CV_8UC1);
    return floodMaskOnly(labels, seed, cv::Scalar::all(0), connectivity);
}

RegionMask RegionMask::magicWand(const cv::Mat& rgb, cv::Point seed, int tolerance, int connectivity)
{
    CV_Assert(rgb.type() == CV_8UC3);
    return floodMaskOnly(rgb, seed, cv::Scalar::all(std::max(0, tolerance)), connectivity);
}

RegionMask RegionMask::ofValue(const cv::Mat& labels, std::uint8_t value)
{
    cv::Mat mask;
    cv::compare(labels, cv::Scalar(value), mask, cv::CMP_EQ);
    return fromFullMask(mask);
}

RegionMask RegionMask::fromFullMask(const cv::Mat& fullMask)
{
    const cv::Rect bounds = cv::boundingRect(fullMask);
    if (bounds.empty())
        return {};
    return {bounds, fullMask(bounds)};
}

}  // namespace segstudio::paint
