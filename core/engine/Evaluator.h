#pragma once

#include "SegmentationMetrics.h"

#include <string>
#include <vector>

namespace segstudio::engine {

struct EvaluateOptions {
    std::string device = "auto";
    int batchSize = 4;
    int threads = 0;
};

struct Evaluation {
    SegmentationMetrics metrics;
    std::vector<std::string> classNames;
    std::string model;
};

// Scores a checkpoint (checkpoints/last.pt or best.pt of a run) on a pack (a split).
// Throws EngineError naming the file for a bad checkpoint, a bad pack or a class-count mismatch.
Evaluation evaluateCheckpoint(const std::string& checkpoint, const std::string& pack, const EvaluateOptions& options = {});

}  // namespace segstudio::engine
