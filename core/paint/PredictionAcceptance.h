#pragma once

#include "WriteGuard.h"

#include <opencv2/core.hpp>

#include <cstdint>

namespace segstudio::paint {

// "Accept prediction": the model's classes copied into a label map, where the user allows it.
struct AcceptOptions {
    bool unlabelledOnly = true;  // false: everywhere the guard allows
    int minConfidence = 0;       // 0..255: only pixels the model is at least this sure of
};

// Writes predicted[y,x] into labels[y,x] where the pixel passes the options and the guard (locked
// classes keep their pixels, the editor's "only unlabelled" lock holds) and the value changes.
// predicted: CV_8UC1 class ids of labels' size; confidence: CV_8UC1 0..255 of that size, or empty
// when minConfidence is 0. Returns the number of changed pixels; `changed` gets their bounding box.
// Throws std::invalid_argument when the sizes or types differ.
std::int64_t acceptPrediction(cv::Mat& labels, const cv::Mat& predicted, const cv::Mat& confidence,
                              const AcceptOptions& options, const WriteGuard& guard, cv::Rect* changed = nullptr);

}  // namespace segstudio::paint
