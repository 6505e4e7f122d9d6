#pragma once

#include "metrics/SegmentationMetrics.h"

namespace segstudio::engine {

// The engine scores with the one metric implementation (core/metrics, docs/METRICS.md); its
// confusion matrix is only summed on the device (ConfusionMatrix).
using SegmentationMetrics = metrics::SegmentationMetrics;

}  // namespace segstudio::engine
