#include "LabelCounts.h"

#include "LabelClass.h"

namespace segstudio::data {
inline namespace labels {

LabelCounts countLabels(const cv::Mat& labels)
{
    CV_Assert(labels.empty() || labels.type() == CV_8UC1);
    LabelCounts counts{};
    for (int y = 0; y < labels.rows; ++y) {
        const std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        for (int x = 0; x < labels.cols; ++x)
            ++counts[row[x]];
    }
    return counts;
}

double labelledFraction(const LabelCounts& counts)
{
    std::int64_t total = 0;
    for (const std::int64_t c : counts)
        total += c;
    return total == 0 ? 0.0 : 1.0 - static_cast<double>(counts[data::kUnlabelled]) / static_cast<double>(total);
}

}  // namespace labels
}  // namespace segstudio::data
