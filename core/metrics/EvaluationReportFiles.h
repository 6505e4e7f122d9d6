#pragma once

#include "EvaluationReport.h"

#include <filesystem>

namespace segstudio::metrics {

// An evaluation report on disk, the one layout the CLI writes and the GUI reads and exports:
// dir/report.json (everything), classes.csv, images.csv and confusion.csv (docs/METRICS.md).
// Each file is replaced atomically; run::FileError names the file that failed. A report never
// replaces a file it did not write: the folder must be new, empty, or hold only an earlier
// report's files as that report wrote them (.segstudio-report.json keeps their fingerprints);
// anything else is refused, naming the file, before a byte is written.
void writeEvaluationReport(const EvaluationReport& report, const std::filesystem::path& dir);
// The same refusal, before the work of an evaluation: run::FileError naming the file that a
// report there would replace although an earlier report did not write it (or it changed since).
void checkReportFolder(const std::filesystem::path& dir);
// run::FileError naming the file when it is missing, not JSON, or not a report.
EvaluationReport readEvaluationReport(const std::filesystem::path& reportJson);

}  // namespace segstudio::metrics
