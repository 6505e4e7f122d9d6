#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <vector>

namespace segstudio::data {
inline namespace formats {

// Draws on an 8-bit image exactly as Pillow 9.4 (Debian 12's python3-pil) draws with ImageDraw on
// a mode-L image when fill and outline are the same ink, which is how labelme rasterises its
// shapes (labelme.utils.shape_to_mask, used by labelme2voc). A port of Pillow's
// src/libImaging/Draw.c and of how src/_imaging.c hands it coordinates:
// - every coordinate is first truncated towards zero to an int ((int) of a double);
// - polygons and wide lines are filled by Draw.c's scan-line filler (polygon_generic): float
//   crossings per row, ends rounded with ROUND_UP / ROUND_DOWN, horizontal edges drawn whole, its
//   corner fix-ups kept as they are (they decide single pixels on integral vertices);
// - ellipses by Draw.c's integer quarter-ellipse walk (ellipse_new);
// - with fill == outline Pillow never draws the outline (ImageDraw skips it when ink == fill).
// Pixels outside the image are clipped. Requirements: a CV_8UC1 image. Coordinates are clamped to
// +-2^28 first (Pillow's own conversion would be undefined far beyond the image; callers check
// shapes against the image before drawing).
class PilDraw {
public:
    explicit PilDraw(cv::Mat& image);

    // draw.polygon(xy, fill=ink, outline=ink)
    void polygon(const std::vector<cv::Point2d>& xy, std::uint8_t ink);
    // draw.rectangle([a, b], fill=ink, outline=ink): the corners in either order, both included
    void rectangle(cv::Point2d a, cv::Point2d b, std::uint8_t ink);
    // draw.ellipse([topLeft, bottomRight], fill=ink, outline=ink). Past Pillow's own limit (an axis
    // over 46340 px, where its 32-bit a * a overflows) OpenCV fills the same ellipse instead.
    void ellipse(cv::Point2d topLeft, cv::Point2d bottomRight, std::uint8_t ink);
    // draw.line(xy, fill=ink, width=width) for width >= 2 (labelme's lines are 10 wide): each
    // segment its own quadrilateral (ImagingDrawWideLine), no joints. Throws std::invalid_argument
    // for a thinner width (Pillow draws those with Bresenham, which no caller needs).
    void line(const std::vector<cv::Point2d>& xy, int width, std::uint8_t ink);

private:
    void wideSegment(cv::Point from, cv::Point to, int width, std::uint8_t ink);

    cv::Mat& m_image;
};

}  // namespace formats
}  // namespace segstudio::data
