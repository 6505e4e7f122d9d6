#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <vector>

namespace segstudio::paint {

class WriteGuard;

// A set of pixels to relabel, kept as a mask over its bounding rectangle so that fills of a small
// region on a 12-megapixel map cost only that region. Every fill tool produces one.
// Guarantees: mask is CV_8UC1 of bounds.size() (nonzero = inside); bounds lies inside the image
// the region was computed for; an empty region has empty bounds.
struct RegionMask {
    cv::Rect bounds;
    cv::Mat mask;

    bool empty() const { return bounds.empty(); }
    std::int64_t area() const;  // pixels inside

    // Sets the pixels inside to value where the guard allows; returns how many changed.
    std::int64_t paint(cv::Mat& labels, std::uint8_t value, const WriteGuard& guard) const;

    // The pixels of a polygon as cv::fillPoly(LINE_8) draws them (also serves the freehand lasso).
    static RegionMask polygon(cv::Size imageSize, const std::vector<cv::Point>& points);
    // The connected pixels that carry the seed's label.
    static RegionMask floodLabel(const cv::Mat& labels, cv::Point seed, int connectivity = 4);
    // Magic wand: connected pixels whose RGB channels all lie within tolerance of the seed's colour.
    static RegionMask magicWand(const cv::Mat& rgb, cv::Point seed, int tolerance, int connectivity = 4);
    // Every pixel with the given value (e.g. all unlabelled pixels), connected or not.
    static RegionMask ofValue(const cv::Mat& labels, std::uint8_t value);
    // A nonzero-mask over the whole image, cropped to its bounding box.
    static RegionMask fromFullMask(const cv::Mat& fullMask);
};

}  // namespace segstudio::paint
