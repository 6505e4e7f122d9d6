#pragma once

#include "EvaluationReport.h"

#include <filesystem>

namespace segstudio::metrics {

// An evaluation report on disk, the one layout the CLI writes and the GUI reads and exports:
// dir/report.json (everything), classes.csv, images.csv and confusion.csv (docs/METRICS.md).
// Each file is replaced atomically; run::FileError names the file that failed.
void writeEvaluationReport(const EvaluationReport& report, const std::filesystem::path& dir);
// run::FileError naming the file when it is missing, not JSON, or not a report.
EvaluationReport readEvaluationReport(const std::filesystem::path& reportJson);

}  // namespace segstudio::metrics
