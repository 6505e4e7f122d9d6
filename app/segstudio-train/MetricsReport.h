#pragma once

#include "engine/inference/SegmentationMetrics.h"

#include <string>
#include <vector>

namespace segstudio::cli {

// The human-readable metrics table the CLI prints after train, evaluate and demo.
std::string metricsReport(const engine::SegmentationMetrics& metrics, const std::vector<std::string>& classNames);

}  // namespace segstudio::cli
