#pragma once

#include "Project.h"
#include "metrics/ImageScore.h"

#include <cstddef>
#include <filesystem>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {

// One prediction scored against its label map by the one metric implementation
// (metrics::scoreImage: mean IoU, mean boundary F1, wrong pixels; docs/METRICS.md). Both CV_8UC1
// of one size, else DataError; predicted ids must be below `classes`.
metrics::ImageScore scorePrediction(const cv::Mat& predicted, const cv::Mat& truth, int classes);

struct PredictionScore {
    std::size_t index = 0;      // project entry
    std::optional<double> iou;         // mean IoU; empty: no label map, nothing labelled, or a problem
    std::optional<double> boundaryF1;  // mean BF score; empty as iou, or when no class has one
    std::int64_t wrongPixels = -1;     // -1: not scored
    std::string problem;        // why a prediction could not be scored (missing, wrong size, ...)
};

// Scores the predictions `segstudio-train predict` wrote for project entries into
// predictionsDir (<image stem>.png) against the entries' label maps. Never throws for one bad
// file: its problem is in the score.
std::vector<PredictionScore> scorePredictions(const Project& project, const std::filesystem::path& predictionsDir,
                                              const std::vector<std::size_t>& indices);

}  // namespace segstudio::data
