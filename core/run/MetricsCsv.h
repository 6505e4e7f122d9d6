#pragma once

#include "MetricsRecord.h"

#include <string>
#include <vector>

namespace segstudio::run {

// The training and validation records as CSV for a spreadsheet or pandas: one row per record,
// kind,epoch,iteration,elapsed_s,loss,accuracy,lr,images_per_s,mean_accuracy,mean_iou,
// weighted_iou and one iou_<class> column per class (names given, else iou_0, iou_1, ...).
// Empty cells where a kind has no value. Run, state and system records are left out.
std::string metricsCsv(const std::vector<MetricsRecord>& records, const std::vector<std::string>& classNames = {});

}  // namespace segstudio::run
