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

    int present = 0;
    double accuracySum = 0.0, iouSum = 0.0, weighted = 0.0;
    for (int c = 0; c < classes; ++c) {
        if (rowSum[c] == 0)
            continue;
        const double hit = double(confusion[std::size_t(c) * classes + c]);
        metrics.classAccuracy[c] = hit / rowSum[c];
        metrics.classIoU[c] = hit / (rowSum[c] + colSum[c] - hit);
        accuracySum += metrics.classAccuracy[c];
        iouSum += metrics.classIoU[c];
        weighted += rowSum[c] / total * metrics.classIoU[c];
        ++present;
    }
    metrics.meanClassAccuracy = accuracySum / present;
    metrics.meanIoU = iouSum / present;
    metrics.weightedIoU = weighted;
    return metrics;
}

}  // namespace segstudio::engine
