#pragma once

#include "PredictionCache.h"
#include "Project.h"
#include "metrics/ImageScore.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace project {

// One prediction scored against its label map by the one metric implementation
// (metrics::scoreImage: mean IoU, mean boundary F1, wrong pixels; docs/METRICS.md). Both CV_8UC1
// of one size, else DataError; predicted ids must be below `classes`.
metrics::ImageScore scorePrediction(const cv::Mat& predicted, const cv::Mat& truth, int classes);

struct ScoringOptions {
    // A pixel is suspect when the model disagrees with its label at least this sure (0..255).
    int suspectConfidence = 230;  // 90 %
};

struct PredictionScore {
    std::size_t index = 0;             // project entry
    std::optional<double> iou;         // mean IoU; empty: no label map, nothing labelled, or a problem
    std::optional<metrics::ConfusionCounts> confusion;  // the image's counts, when iou is set
    std::optional<double> boundaryF1;  // mean BF score; empty as iou, or when no class has one
    std::int64_t wrongPixels = -1;     // -1: not scored
    // The labeling queue's key: mean normalised entropy (0..1) over the pixels not labelled yet
    // (every pixel of an image without a label map or with every pixel labelled); empty without
    // a prediction.
    std::optional<double> uncertainty;
    // Likely labeling mistakes: the share of labelled pixels where the model disagrees with the
    // label at least ScoringOptions::suspectConfidence sure; empty without label map or prediction.
    std::optional<double> suspectFraction;
    std::string problem;  // why a prediction could not be scored (missing, wrong size, ...)
};

// Scores the predictions of one checkpoint's cache for project entries against the entries'
// label maps. An image with a label map but no (current) prediction gets the problem "no
// prediction"; an image without a label map gets only its uncertainty. Never throws for one bad
// file: its problem is in the score.
// The data set's metrics over the scored images that `include` accepts (their confusion counts
// summed: docs/METRICS.md's one "mean IoU", the run's and the evaluation report's, not a mean of
// per-image IoUs); empty when none was scored.
std::optional<metrics::SegmentationMetrics> datasetMetrics(const std::vector<PredictionScore>& scores,
                                                           const std::function<bool(std::size_t index)>& include);

std::vector<PredictionScore> scorePredictions(const Project& project, const PredictionCache& cache,
                                              const std::vector<std::size_t>& indices, const ScoringOptions& options = {});

}  // namespace project
}  // namespace segstudio::data
