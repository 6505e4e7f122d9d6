#pragma once

#include "RegionMask.h"

#include <opencv2/core.hpp>

#include <vector>

namespace segstudio::paint {

// SLIC superpixels (Achanta et al. 2012) of an RGB image: k-means in (Lab, x, y) restricted to a
// 2S window per centre, then small fragments merged into a neighbour so every superpixel is one
// connected piece. OpenCV's own SLIC lives in opencv_contrib, which we do not ship.
// Large images are segmented at a reduced scale (at most maxWorkPixels) and the ids scaled back
// with nearest-neighbour, which keeps a 12-megapixel image near a second.
// Requirements: none beyond a CV_8UC3 image; compute() is a pure function, safe on any thread.
// Guarantees: ids() is CV_32SC1 of the image size with ids 0..count()-1, each id 4-connected.
class SuperpixelMap {
public:
    SuperpixelMap() = default;

    static SuperpixelMap compute(const cv::Mat& rgb, int regionSize = 24, double compactness = 10.0,
                                 int iterations = 10, int maxWorkPixels = 1'500'000);

    bool empty() const { return m_ids.empty(); }
    const cv::Mat& ids() const { return m_ids; }
    int count() const { return static_cast<int>(m_bounds.size()); }
    int idAt(cv::Point p) const;  // -1 outside
    cv::Rect bounds(int id) const { return m_bounds.at(static_cast<std::size_t>(id)); }
    RegionMask region(const std::vector<int>& ids) const;

private:
    static cv::Mat cluster(const cv::Mat& lab, int step, double compactness, int iterations);
    static cv::Mat enforceConnectivity(const cv::Mat& labels, int minSize, int* count);

    cv::Mat m_ids;
    std::vector<cv::Rect> m_bounds;
};

}  // namespace segstudio::paint
