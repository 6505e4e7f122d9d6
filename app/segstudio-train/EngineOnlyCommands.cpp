// SEGSTUDIO_ENGINE_ONLY builds have no core/data (no OpenCV): import, pack, demo and predict say so
// instead of disappearing, so scripts get a clear message.
#include "Commands.h"

#include <iostream>
#include <stdexcept>

namespace segstudio::cli {

namespace {

void addUnavailable(CLI::App& app, const char* name, int& exitCode)
{
    auto* command = app.add_subcommand(name, std::string(name) + " (not in this engine-only build)");
    command->allow_extras();
    command->callback([name, &exitCode] {
        std::cerr << "segstudio-train " << name
                  << ": not available in this build (SEGSTUDIO_ENGINE_ONLY has no image I/O). Run it with a full "
                     "SegStudio build and copy the packs or checkpoints over."
                  << std::endl;
        exitCode = kExitError;
    });
}

}  // namespace

metrics::EvaluationReport evaluateProjectSplit(const std::string&, const std::string&, const std::string&,
                                               const engine::EvaluateOptions&, const std::string&)
{
    throw std::runtime_error("evaluate --project is not available in this build (SEGSTUDIO_ENGINE_ONLY has no image I/O): "
                             "evaluate a pack with --pack");
}

void addPackCommand(CLI::App& app, int& exitCode)
{
    addUnavailable(app, "pack", exitCode);
}

void addImportCommand(CLI::App& app, int& exitCode)
{
    addUnavailable(app, "import", exitCode);
}

void addDataCommands(CLI::App& app, int& exitCode)
{
    for (const char* name : {"export", "stats", "split", "info"})
        addUnavailable(app, name, exitCode);
}

void addDemoCommand(CLI::App& app, int& exitCode)
{
    addUnavailable(app, "demo", exitCode);
}

void addPredictCommand(CLI::App& app, int& exitCode)
{
    addUnavailable(app, "predict", exitCode);
}

// The export needs libonnx and checks the file with OpenCV: run it where the full build is (the
// checkpoint is the same file there).
void addExportModelCommand(CLI::App& app, int& exitCode)
{
    addUnavailable(app, "export-model", exitCode);
}

}  // namespace segstudio::cli
