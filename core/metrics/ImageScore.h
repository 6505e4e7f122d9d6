#pragma once

#include "ConfusionCounts.h"

#include <cstdint>
#include <vector>

namespace segstudio::metrics {

// One image's prediction scored against its truth, with the conventions of SegmentationMetrics
// and boundaryF1: what the browser sorts by and what the evaluation report sums.
struct ImageScore {
    ConfusionCounts confusion;
    std::vector<double> classBoundaryF1;  // NaN for classes in neither map
    double globalAccuracy = 0.0;          // NaN when nothing is labelled
    double meanIoU = 0.0;                 // NaN when nothing is labelled
    double meanBoundaryF1 = 0.0;          // over the classes with a BF score; NaN when none

    std::int64_t labelledPixels() const { return confusion.labelledPixels(); }
    std::int64_t wrongPixels() const { return confusion.wrongPixels(); }
};

// truth and predicted: width*height class ids, row-major; truth ids >= classes are unlabelled.
ImageScore scoreImage(const std::uint8_t* truth, const std::uint8_t* predicted, int width, int height, int classes);

// The mean of the values that are not NaN; NaN when there is none.
double meanOfDefined(const std::vector<double>& values);

}  // namespace segstudio::metrics
