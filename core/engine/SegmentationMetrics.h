#pragma once

#include <cstdint>
#include <vector>

namespace segstudio::engine {

// Scores of a segmentation against ground truth, derived from a confusion matrix
// (rows = true class, columns = predicted class; unlabelled pixels never counted).
// Conventions (as MATLAB's evaluateSemanticSegmentation): class accuracy and IoU are averaged over
// the classes that occur in the ground truth; a class absent from it has accuracy and IoU NaN;
// weighted IoU weights each class's IoU by its share of ground-truth pixels.
struct SegmentationMetrics {
    double loss = 0.0;  // mean loss over the evaluated batches, when known
    double globalAccuracy = 0.0;
    double meanClassAccuracy = 0.0;
    double meanIoU = 0.0;
    double weightedIoU = 0.0;
    std::vector<double> classAccuracy;
    std::vector<double> classIoU;
    std::uint64_t pixels = 0;

    // confusion: classes*classes counts, row-major.
    static SegmentationMetrics fromConfusion(const std::vector<std::int64_t>& confusion, int classes);
};

}  // namespace segstudio::engine
