#pragma once

#include "data/project/PredictionCache.h"
#include "engine/inference/Predictor.h"

#include <opencv2/core.hpp>

#include <cstdint>
#include <vector>

namespace segstudio::cli {

// The engine's per-pixel bytes as the class, confidence and entropy maps core/data writes.
inline cv::Mat mapOf(const std::vector<std::uint8_t>& bytes, const cv::Mat& image)
{
    return cv::Mat(image.rows, image.cols, CV_8UC1, const_cast<std::uint8_t*>(bytes.data())).clone();
}

inline data::PredictionCache::Entry entryOf(const engine::Predictor::Prediction& prediction, const cv::Mat& image)
{
    cv::Mat scores;
    if (!prediction.scores.empty()) {
        const int classes = int(prediction.scores.size() / (std::size_t(prediction.scoreHeight) * std::size_t(prediction.scoreWidth)));
        scores = cv::Mat(prediction.scoreHeight, prediction.scoreWidth, CV_8UC(classes),
                         const_cast<std::uint8_t*>(prediction.scores.data()))
                     .clone();
    }
    return {mapOf(prediction.classes, image), mapOf(prediction.confidence, image), mapOf(prediction.entropy, image),
            std::move(scores)};
}

}  // namespace segstudio::cli
