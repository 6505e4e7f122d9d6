#include "SegmentationMetrics.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace segstudio::metrics {

SegmentationMetrics SegmentationMetrics::fromConfusion(const std::vector<std::int64_t>& confusion, int classes)
{
    if (classes <= 0 || confusion.size() != std::size_t(classes) * std::size_t(classes))
        throw std::invalid_argument("confusion matrix of " + std::to_string(confusion.size()) + " entries does not match " +
                                    std::to_string(classes) + " classes");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    SegmentationMetrics metrics;
    metrics.classAccuracy.assign(std::size_t(classes), nan);
    metrics.classIoU.assign(std::size_t(classes), nan);

    std::vector<double> truthPixels(std::size_t(classes), 0.0), predictedPixels(std::size_t(classes), 0.0);
    double total = 0.0, correct = 0.0;
    for (int t = 0; t < classes; ++t) {
        for (int p = 0; p < classes; ++p) {
            const auto count = double(confusion[std::size_t(t) * std::size_t(classes) + std::size_t(p)]);
            truthPixels[std::size_t(t)] += count;
            predictedPixels[std::size_t(p)] += count;
            total += count;
        }
        correct += double(confusion[std::size_t(t) * std::size_t(classes) + std::size_t(t)]);
    }
    metrics.pixels = std::uint64_t(total);
    if (total == 0)
        return metrics;
    metrics.globalAccuracy = correct / total;

    int withTruth = 0, withUnion = 0;
    double accuracySum = 0.0, iouSum = 0.0, weighted = 0.0;
    for (std::size_t c = 0; c < std::size_t(classes); ++c) {
        const auto hit = double(confusion[c * std::size_t(classes) + c]);
        const double unionPixels = truthPixels[c] + predictedPixels[c] - hit;
        if (unionPixels > 0) {
            metrics.classIoU[c] = hit / unionPixels;
            iouSum += metrics.classIoU[c];
            weighted += truthPixels[c] / total * metrics.classIoU[c];
            ++withUnion;
        }
        if (truthPixels[c] > 0) {
            metrics.classAccuracy[c] = hit / truthPixels[c];
            accuracySum += metrics.classAccuracy[c];
            ++withTruth;
        }
    }
    metrics.meanClassAccuracy = accuracySum / withTruth;
    metrics.meanIoU = iouSum / withUnion;
    metrics.weightedIoU = weighted;
    return metrics;
}

}  // namespace segstudio::metrics
