#pragma once

#include "metrics/SegmentationMetrics.h"

namespace segstudio::engine {
inline namespace inference {

// The engine scores with the one metric implementation (core/metrics, docs/METRICS.md); its
// confusion matrix is only summed on the device (ConfusionMatrix).
using SegmentationMetrics = metrics::SegmentationMetrics;

}  // namespace inference
}  // namespace segstudio::engine
