#pragma once

#include "RegionMask.h"

#include <opencv2/core.hpp>

namespace segstudio::paint {

// Smart region selection with cv::grabCut, seeded by a rectangle or by foreground/background
// strokes. Works on a crop around the seed (and scaled down past maxWorkPixels) so a click on a
// 12-megapixel image stays interactive: a rectangle plus a ring of context, or the object strokes
// grown by their own extent on every side (and any background strokes).
// Requirements: a CV_8UC3 image; pure functions, safe on any thread.
// Guarantees: the result lies inside the image; an empty region when the seed is degenerate.
class GrabCutSegmenter {
public:
    static RegionMask fromRect(const cv::Mat& rgb, const cv::Rect& rect, int iterations = 3,
                               int maxWorkPixels = 400'000);
    // foreground/background: CV_8UC1 masks of the image size, nonzero where the user stroked.
    static RegionMask fromStrokes(const cv::Mat& rgb, const cv::Mat& foreground, const cv::Mat& background,
                                  int iterations = 3, int maxWorkPixels = 400'000);

private:
    static RegionMask run(const cv::Mat& rgb, const cv::Rect& roi, cv::Mat seedMask, int mode, cv::Rect rectInRoi,
                          int iterations, int maxWorkPixels);
};

}  // namespace segstudio::paint
