#pragma once

#include <opencv2/core.hpp>

#include <vector>

namespace segstudio::paint {

// What the clicks say about colour: a histogram of the colours under the positive clicks against
// one of the colours under the negative clicks and of the image at large (the background a click
// session has before any negative click), as GrabCut's colour models are seeded by the user's
// strokes. logRatio() is, per pixel, ln p(colour | clicked object) - ln p(colour | elsewhere):
// positive where the pixel looks like what was clicked positive more than like the rest.
// Colours are binned 8 levels a channel (512 bins) and the counts spread over neighbouring bins,
// so a few hundred samples (two clicks' discs) make a usable model.
// Requirements: rgb CV_8UC3 (the smart click's work size). Construction is the per-image work.
// Guarantees: logRatio() is CV_32FC1 of rgb's size, within [-limit, limit]; zero without a
// positive point.
class ClickColourModel {
public:
    struct Point {
        cv::Point at;  // work-size pixel
        bool positive = true;
    };

    ClickColourModel() = default;
    explicit ClickColourModel(const cv::Mat& rgb);

    bool empty() const { return m_bins.empty(); }
    cv::Mat logRatio(const std::vector<Point>& points, int radius, float limit) const;

private:
    static constexpr int kLevels = 8;
    static constexpr int kBins = kLevels * kLevels * kLevels;
    std::vector<float> histogramAround(const std::vector<Point>& points, bool positive, int radius) const;
    static void spread(std::vector<float>& histogram);
    static void normalise(std::vector<float>& histogram);

    cv::Mat m_bins;                // CV_16UC1: each pixel's colour bin
    std::vector<float> m_image;    // the whole image's colours, normalised
};

}  // namespace segstudio::paint
