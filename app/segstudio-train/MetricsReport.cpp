#include "MetricsReport.h"

#include <cmath>
#include <cstdio>

namespace segstudio::cli {

std::string metricsReport(const engine::SegmentationMetrics& metrics, const std::vector<std::string>& classNames)
{
    char line[160];
    std::string text;
    std::snprintf(line, sizeof line,
                  "  global accuracy %.4f   mean accuracy %.4f   mean IoU %.4f   weighted IoU %.4f   loss %.4f\n",
                  metrics.globalAccuracy, metrics.meanClassAccuracy, metrics.meanIoU, metrics.weightedIoU, metrics.loss);
    text += line;
    text += "  class                  accuracy      IoU\n";
    for (std::size_t c = 0; c < metrics.classIoU.size(); ++c) {
        const std::string name = c < classNames.size() ? classNames[c] : "class " + std::to_string(c);
        if (std::isnan(metrics.classIoU[c]))
            std::snprintf(line, sizeof line, "  %-20s        -        -   (not in ground truth)\n", name.c_str());
        else
            std::snprintf(line, sizeof line, "  %-20s   %8.4f %8.4f\n", name.c_str(), metrics.classAccuracy[c],
                          metrics.classIoU[c]);
        text += line;
    }
    return text;
}

}  // namespace segstudio::cli
