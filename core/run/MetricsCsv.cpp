#include "MetricsCsv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace segstudio::run {

namespace {

std::string cell(const std::optional<double>& value)
{
    if (!value || !std::isfinite(*value))
        return {};
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", *value);
    return text;
}

// RFC 4180: a name with a comma, quote or newline is quoted, its quotes doubled.
std::string quoted(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string metricsCsv(const std::vector<MetricsRecord>& records, const std::vector<std::string>& classNames)
{
    std::size_t classes = classNames.size();
    for (const auto& record : records)
        classes = std::max(classes, record.classIoU.size());
    std::string csv = "kind,epoch,iteration,elapsed_s,loss,accuracy,lr,images_per_s,mean_accuracy,mean_iou,weighted_iou";
    for (std::size_t c = 0; c < classes; ++c)
        csv += "," + quoted("iou_" + (c < classNames.size() ? classNames[c] : std::to_string(c)));
    csv += "\n";
    for (const auto& record : records) {
        if (record.kind != MetricsRecord::Kind::Train && record.kind != MetricsRecord::Kind::Val)
            continue;
        csv += std::string(toString(record.kind)) + "," + std::to_string(record.epoch) + "," +
               std::to_string(record.iteration);
        for (const auto& value : {record.elapsedSeconds, record.loss, record.accuracy, record.learningRate,
                                  record.imagesPerSecond, record.meanAccuracy, record.meanIoU, record.weightedIoU})
            csv += "," + cell(value);
        for (std::size_t c = 0; c < classes; ++c)
            csv += "," + (c < record.classIoU.size() ? cell(record.classIoU[c]) : std::string());
        csv += "\n";
    }
    return csv;
}

}  // namespace segstudio::run
