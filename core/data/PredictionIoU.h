#pragma once

#include "Project.h"

#include <cstddef>
#include <filesystem>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {

// Per-image intersection over union of a predicted label map against the truth: the mean, over
// the classes present in the truth, of |P=c and T=c| / |P=c or T=c|, counted over the labelled
// pixels of the truth (255 is ignored). Every wrong pixel lowers a present class's IoU, so a
// class predicted but absent from the truth is still paid for. Empty when the truth has no
// labelled pixel. Both CV_8UC1 of one size, else DataError.
std::optional<double> meanIoUOfPresentClasses(const cv::Mat& predicted, const cv::Mat& truth);

struct PredictionScore {
    std::size_t index = 0;      // project entry
    std::optional<double> iou;  // empty: no label map, nothing labelled, or a problem
    std::string problem;        // why a prediction could not be scored (missing, wrong size, ...)
};

// Scores the predictions `segstudio-train predict` wrote for project entries into
// predictionsDir (<image stem>.png) against the entries' label maps. Never throws for one bad
// file: its problem is in the score.
std::vector<PredictionScore> scorePredictions(const Project& project, const std::filesystem::path& predictionsDir,
                                              const std::vector<std::size_t>& indices);

}  // namespace segstudio::data
