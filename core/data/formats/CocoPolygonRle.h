#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <vector>

namespace segstudio::data {
inline namespace formats {

// A COCO polygon as pycocotools rasterises it (annToMask -> frPyObjects -> rleFrPoly in
// common/maskApi.c), ported line for line so that a polygon gives the very mask COCO's own tools
// give: the vertices are scaled by 5 and rounded, every edge walked pixel by pixel at that scale,
// and each place where the walk crosses a column centre toggles the column there; the toggles,
// sorted, are the runs. (Not "pixel centres inside": a square from 0 to 20 still covers exactly
// its 400 pixels, but slanted edges round as rleFrPoly rounds.)
// Guarantees: the runs are column-major, start with a run of zeros and add up to width x height,
// as CocoRle::paint takes them; a polygon's pixels are the odd runs. An annotation of several
// polygons is their union (pycocotools merges their masks), so painting each one does.
class CocoPolygonRle {
public:
    // `polygon`: COCO's [x1, y1, x2, y2, ...] as points, in pixel units (pixel (i, j) is the square
    // [i, i+1] x [j, j+1]). Requirements: vertices near the image (CocoImporter allows a pixel
    // out): the walk keeps 5 points a pixel of perimeter. Coordinates are clamped to +-2^25 first
    // only so that no int conversion is undefined.
    static std::vector<std::uint32_t> runsOf(const std::vector<cv::Point2d>& polygon, cv::Size size);
};

}  // namespace formats
}  // namespace segstudio::data
