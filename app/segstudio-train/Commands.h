#pragma once

#include "engine/inference/Evaluator.h"
#include "metrics/EvaluationReport.h"
#include "run/ExitCode.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace labels { class ClassSchema; }
}

namespace segstudio::cli {

// Each subcommand lives in its own file and adds itself to the app; the callback stores the
// process exit code in exitCode. pack, demo and predict need core/data (images, projects) and are
// replaced by a stub that explains itself in SEGSTUDIO_ENGINE_ONLY builds.
// train's workers of a data-parallel run are this program again, with the same arguments.
void addTrainCommand(CLI::App& app, int& exitCode, std::vector<std::string> programArguments);
void addEvaluateCommand(CLI::App& app, int& exitCode);
void addCatalogCommands(CLI::App& app, int& exitCode);  // models, devices
void addPackCommand(CLI::App& app, int& exitCode);
void addImportCommand(CLI::App& app, int& exitCode);
void addDataCommands(CLI::App& app, int& exitCode);  // export, stats, split, info
void addDemoCommand(CLI::App& app, int& exitCode);
void addPredictCommand(CLI::App& app, int& exitCode);
void addExportModelCommand(CLI::App& app, int& exitCode);

// evaluate --project: the checkpoint predicts each labelled image of the project's split at its own
// size and is scored against its label map (named by file); with predictionsDir, the class,
// confidence and entropy maps are kept there too (as predict --confidence writes them). Needs
// core/data: the engine-only build throws a message saying so.
// A model predicts a project only when it was trained on as many classes: else DataError naming
// the checkpoint and both counts. (Full builds only, as evaluateProjectSplit.)
void requireSameClasses(int checkpointClasses, const data::ClassSchema& schema, const std::string& checkpoint,
                        const std::string& projectFile);
metrics::EvaluationReport evaluateProjectSplit(const std::string& checkpoint, const std::string& project,
                                               const std::string& split, const engine::EvaluateOptions& options,
                                               const std::string& predictionsDir);

// Exit codes shared by the subcommands, and by whoever launches them: core/run's.
using run::kExitDiverged;
using run::kExitError;
using run::kExitOk;
using run::kExitPeerTimeout;
using run::kExitRunBusy;
using run::kExitStopped;

}  // namespace segstudio::cli
