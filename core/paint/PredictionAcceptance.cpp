#include "PredictionAcceptance.h"

#include "data/labels/LabelClass.h"

#include <stdexcept>

namespace segstudio::paint {

std::int64_t acceptPrediction(cv::Mat& labels, const cv::Mat& predicted, const cv::Mat& confidence,
                              const AcceptOptions& options, const WriteGuard& guard, cv::Rect* changed)
{
    if (labels.type() != CV_8UC1 || predicted.type() != CV_8UC1 || predicted.size() != labels.size())
        throw std::invalid_argument("the prediction is not a class map of the label map's size");
    const bool byConfidence = options.minConfidence > 0;
    if (byConfidence && (confidence.type() != CV_8UC1 || confidence.size() != labels.size()))
        throw std::invalid_argument("a confidence threshold needs the confidence map of the prediction");
    std::int64_t count = 0;
    int left = labels.cols, top = labels.rows, right = -1, bottom = -1;
    for (int y = 0; y < labels.rows; ++y) {
        std::uint8_t* out = labels.ptr<std::uint8_t>(y);
        const std::uint8_t* in = predicted.ptr<std::uint8_t>(y);
        const std::uint8_t* sure = byConfidence ? confidence.ptr<std::uint8_t>(y) : nullptr;
        for (int x = 0; x < labels.cols; ++x) {
            const std::uint8_t current = out[x];
            if (current == in[x] || !guard.allows(current) || (options.unlabelledOnly && current != data::kUnlabelled) ||
                (sure && sure[x] < options.minConfidence))
                continue;
            out[x] = in[x];
            ++count;
            left = std::min(left, x);
            right = std::max(right, x);
            top = std::min(top, y);
            bottom = std::max(bottom, y);
        }
    }
    if (changed)
        *changed = count > 0 ? cv::Rect(left, top, right - left + 1, bottom - top + 1) : cv::Rect();
    return count;
}

}  // namespace segstudio::paint
