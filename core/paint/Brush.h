#pragma once

#include <opencv2/core.hpp>

#include <cstdint>

namespace segstudio::paint {

class WriteGuard;

enum class BrushShape { Round, Square };

// A brush tip and its exact rasterisation into a label map: no antialiasing, every pixel either
// gets the value or keeps its own. A dab of size n is exactly n pixels across, for every n and
// both shapes: it covers an n×n box whose top-left is c - (n / 2, n / 2) (integer division), so
// for even n the centre pixel c is the lower-right of the four middle pixels. A square dab fills
// the box; a round dab takes the box pixels whose centres lie within n / 2 of the box centre.
// Guarantees: stroke() stamps a dab at every pixel of the 8-connected line between the two points,
// so a fast mouse leaves no gaps; pixels outside the map are clipped; pixels the guard forbids
// keep their value. Each call returns the rectangle it may have changed (empty if none).
class Brush {
public:
    Brush(int size = 1, BrushShape shape = BrushShape::Round);

    int size() const { return m_size; }
    BrushShape shape() const { return m_shape; }
    const cv::Mat& tip() const { return m_tip; }  // CV_8UC1, 255 = covered

    cv::Rect dabRect(cv::Point center) const;  // unclipped
    cv::Rect strokeRect(cv::Point from, cv::Point to) const;  // unclipped
    cv::Rect stamp(cv::Mat& labels, cv::Point center, std::uint8_t value, const WriteGuard& guard) const;
    // Stamps every point of the line except `from`, which the previous segment already stamped.
    cv::Rect stroke(cv::Mat& labels, cv::Point from, cv::Point to, std::uint8_t value, const WriteGuard& guard) const;

private:
    int m_size;
    BrushShape m_shape;
    cv::Mat m_tip;
    cv::Point m_anchor;  // the tip pixel that sits on the dab centre
};

}  // namespace segstudio::paint
