#pragma once

#include "SegmentationMetrics.h"
#include "metrics/EvaluationReport.h"

#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace inference {

struct EvaluateOptions {
    std::string device = "auto";
    int batchSize = 4;
    int threads = 0;
    std::string precision = "auto";  // auto | fp32 | bf16 (inferencePrecision)
};

struct Evaluation {
    SegmentationMetrics metrics;
    std::vector<std::string> classNames;
    std::string model;
};

// Scores a checkpoint (checkpoints/last.pt or best.pt of a run) on a pack (a split).
// Throws EngineError naming the file for a bad checkpoint, a bad pack or a class-count mismatch.
Evaluation evaluateCheckpoint(const std::string& checkpoint, const std::string& pack, const EvaluateOptions& options = {});

// The full report (per-image scores, boundary F1, confusion matrix) of a checkpoint on a pack: the
// class maps come back to the host image by image. Images are named by their record, "#0001"….
metrics::EvaluationReport evaluationReport(const std::string& checkpoint, const std::string& pack,
                                           const EvaluateOptions& options = {});

}  // namespace inference
}  // namespace segstudio::engine
