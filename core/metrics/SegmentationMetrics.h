#pragma once

#include <cstdint>
#include <vector>

namespace segstudio::metrics {

// Scores of a segmentation against ground truth, derived from a confusion matrix
// (rows = true class, columns = predicted class; pixels unlabelled in the truth never counted).
//
// The conventions, the same everywhere in SegStudio (docs/METRICS.md):
// - class accuracy (recall) is defined for the classes present in the truth; NaN otherwise;
// - class IoU is defined for the classes present in the truth *or* the prediction: a class
//   predicted but never true scores 0 and lowers the mean (as MATLAB's evaluateSemanticSegmentation
//   and SegNet's scripts do); a class in neither is NaN and left out of every mean;
// - weighted IoU weights each class's IoU by its share of the truth's pixels.
struct SegmentationMetrics {
    double loss = 0.0;  // mean loss over the evaluated images, when known
    double globalAccuracy = 0.0;
    double meanClassAccuracy = 0.0;
    double meanIoU = 0.0;
    double weightedIoU = 0.0;
    std::vector<double> classAccuracy;
    std::vector<double> classIoU;
    std::uint64_t pixels = 0;  // labelled pixels scored

    // confusion: classes*classes counts, row-major. Throws std::invalid_argument when the sizes
    // do not match.
    static SegmentationMetrics fromConfusion(const std::vector<std::int64_t>& confusion, int classes);
};

}  // namespace segstudio::metrics
