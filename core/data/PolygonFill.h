#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <vector>

namespace segstudio::data {

// Fills a polygon given in continuous image coordinates (pixel (i, j) is the square
// [i, i+1] x [j, j+1], COCO's convention): a pixel is inside when its centre is, edges half-open,
// so a square from 0 to 20 covers exactly 400 pixels and two polygons sharing an edge never both
// take the pixels along it. cv::fillPoly instead takes every pixel an edge touches (labelme's and
// PIL's rule), which grows each COCO object by half a pixel all round.
void fillPolygonByCentres(cv::Mat& labels, const std::vector<cv::Point2d>& polygon, std::uint8_t value);

}  // namespace segstudio::data
