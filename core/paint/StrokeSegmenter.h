#pragma once

#include "RegionMask.h"

#include <opencv2/core.hpp>

#include <vector>

namespace segstudio::paint {

// The stroke-click (issue 61.3): a short drag along a thin structure (a pole, a fence post, a
// sign's stem, a cyclist's frame) labels the structure itself, bounded by the image's edges. Clicks
// on such things did not converge: the model is unsure across the whole few-pixel width, and a
// click's shift spreads to the wall behind. A stroke says more: the pixels under it are the
// object, and the object lies within `corridor` pixels of it. A graph cut over that corridor, at
// the image's full resolution, settles which pixels look like the stroke's (a colour histogram of
// the stroke's pixels against one of the corridor's rim) with a contrast-sensitive Potts term, as
// GrabCut does inside its box; the stroke's pixels are held inside and the rim outside.
// The model is not needed (the stroke works on a project without any run); where its per-class
// margins are given (optional, at any size), they join the unary term at `modelWeight`.
// Requirements: rgb CV_8UC3; stroke points in image pixels (one point is a dot); region() is
// const-free static work, safe on any thread.
// Guarantees: the region lies inside the image and within `corridor` of the stroke, holds every
// stroke pixel inside the image, and is connected (8-neighbours) to the stroke; empty when the
// stroke misses the image.
class StrokeSegmenter {
public:
    struct Parameters {
        int corridor = 10;          // pixels: how far from the stroke the structure may reach
        double smoothness = 12.0;   // Potts weight in nats at zero colour contrast (chosen on tuning frames)
        double colourLimit = 3.0;   // the colour log-ratio is clamped to +- this
        double modelWeight = 0.5;   // nats of unary per nat of the model's margin (when given)
    };

    // margins (optional): CV_32FC1, ln P(class) - ln max_{k != class} P(k), at any size (resized
    // to the image).
    static RegionMask region(const cv::Mat& rgb, const std::vector<cv::Point>& stroke, const Parameters& parameters,
                             const cv::Mat& margins = cv::Mat());
    static RegionMask region(const cv::Mat& rgb, const std::vector<cv::Point>& stroke)
    {
        return region(rgb, stroke, Parameters());
    }
};

}  // namespace segstudio::paint
