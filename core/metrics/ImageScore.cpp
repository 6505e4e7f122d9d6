#include "ImageScore.h"

#include "BoundaryF1.h"

#include <cmath>
#include <limits>

namespace segstudio::metrics {

double meanOfDefined(const std::vector<double>& values)
{
    double sum = 0.0;
    int count = 0;
    for (const double value : values)
        if (!std::isnan(value)) {
            sum += value;
            ++count;
        }
    return count > 0 ? sum / count : std::numeric_limits<double>::quiet_NaN();
}

ImageScore scoreImage(const std::uint8_t* truth, const std::uint8_t* predicted, int width, int height, int classes)
{
    ImageScore score{ConfusionCounts(classes), {}, 0.0, 0.0, 0.0};
    score.confusion.add(truth, predicted, std::size_t(width) * std::size_t(height));
    score.classBoundaryF1 = boundaryF1(truth, predicted, width, height, classes, boundaryTolerance(width, height));
    score.meanBoundaryF1 = meanOfDefined(score.classBoundaryF1);
    if (score.labelledPixels() == 0) {
        score.globalAccuracy = score.meanIoU = std::numeric_limits<double>::quiet_NaN();
        return score;
    }
    const auto metrics = score.confusion.metrics();
    score.globalAccuracy = metrics.globalAccuracy;
    score.meanIoU = metrics.meanIoU;
    return score;
}

}  // namespace segstudio::metrics
