#include "SegmentationMetrics.h"

#include "EngineError.h"

#include <cmath>
#include <limits>
#include <string>

namespace segstudio::engine {

SegmentationMetrics SegmentationMetrics::fromConfusion(const std::vector<std::int64_t>& confusion, int classes)
{
    if (classes <= 0 || confusion.size() != std::size_t(classes) * std::size_t(classes))
        throw EngineError("confusion matrix of " + std::to_string(confusion.size()) + " entries does not match " +
                          std::to_string(classes) + " classes");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    SegmentationMetrics metrics;
    metrics.classAccuracy.assign(classes, nan);
    metrics.classIoU.assign(classes, nan);

    std::vector<double> rowSum(classes, 0.0), colSum(classes, 0.0);
    double total = 0.0, correct = 0.0;
    for (int t = 0; t < classes; ++t) {
        for (int p = 0; p < classes; ++p) {
            const double count = double(confusion[std::size_t(t) * classes + p]);
            rowSum[t] += count;
            colSum[p] += count;
            total += count;
        }
        correct += double(confusion[std::size_t(t) * classes + t]);
    }
    metrics.pixels = std::uint64_t(total);
    if (total == 0)
        return metrics;
    metrics.globalAccuracy = correct / total;

    // Class accuracy needs the class in the ground truth; IoU only needs it somewhere (truth or
    // prediction), so a class predicted but never true scores IoU 0 and lowers the mean, as in
    // SegNet's and mmsegmentation's evaluation.
    int withTruth = 0, withUnion = 0;
    double accuracySum = 0.0, iouSum = 0.0, weighted = 0.0;
    for (int c = 0; c < classes; ++c) {
        const double hit = double(confusion[std::size_t(c) * classes + c]);
        const double unionPixels = rowSum[c] + colSum[c] - hit;
        if (unionPixels > 0) {
            metrics.classIoU[c] = hit / unionPixels;
            iouSum += metrics.classIoU[c];
            weighted += rowSum[c] / total * metrics.classIoU[c];
            ++withUnion;
        }
        if (rowSum[c] > 0) {
            metrics.classAccuracy[c] = hit / rowSum[c];
            accuracySum += metrics.classAccuracy[c];
            ++withTruth;
        }
    }
    metrics.meanClassAccuracy = accuracySum / withTruth;
    metrics.meanIoU = iouSum / withUnion;
    metrics.weightedIoU = weighted;
    return metrics;
}

}  // namespace segstudio::engine
