// segstudio-train: packs datasets, trains, evaluates and predicts from the command line. The GUI
// starts it as a separate process and watches the run directory it writes.
#include "Commands.h"
#include "Version.h"

#include "engine/runtime/EngineError.h"
#include "run/RunLockedError.h"

#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

namespace {

// "--time-budget=" with nothing after the '=': CLI11 takes the next word as the value, so the
// error blamed that word ("'--train-pack' is not a duration") and an option that takes any text
// (--val-pack=) swallowed the next option without a word. Such an option is named and refused.
std::optional<std::string> optionWithEmptyValue(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--")
            break;  // the words after it are values, not options
        if (word.size() > 3 && word.rfind("--", 0) == 0 && word.find('=') == word.size() - 1)
            return word.substr(0, word.size() - 1);
    }
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{"SegStudio training tool: semantic segmentation with LibTorch.\n"
                 "Typical use: pack a labelled project, train, evaluate, predict:\n"
                 "  segstudio-train pack --project my.segstudio --split train -o train.pack\n"
                 "  segstudio-train pack --project my.segstudio --split val -o val.pack\n"
                 "  segstudio-train train --train-pack train.pack --val-pack val.pack -o runs/first\n"
                 "  segstudio-train evaluate -c runs/first -p val.pack\n"
                 "  segstudio-train predict -c runs/first -o predictions images/*.png\n"
                 "Or try everything on a synthetic dataset in under a minute: segstudio-train demo",
                 "segstudio-train"};
    app.set_version_flag("--version", std::string("segstudio-train ") + SEGSTUDIO_VERSION);
    app.require_subcommand(1);
    int exitCode = segstudio::cli::kExitOk;
    segstudio::cli::addImportCommand(app, exitCode);
    segstudio::cli::addDataCommands(app, exitCode);
    segstudio::cli::addPackCommand(app, exitCode);
    segstudio::cli::addTrainCommand(app, exitCode, std::vector<std::string>(argv, argv + argc));
    segstudio::cli::addEvaluateCommand(app, exitCode);
    segstudio::cli::addPredictCommand(app, exitCode);
    segstudio::cli::addExportModelCommand(app, exitCode);
    segstudio::cli::addDemoCommand(app, exitCode);
    segstudio::cli::addCatalogCommands(app, exitCode);
    try {
        if (const auto option = optionWithEmptyValue(argc, argv))
            throw CLI::ValidationError(*option,
                                       "the value is empty (nothing follows the '='): give " + *option
                                           + "=VALUE, or leave the option out");
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // --help and --version exit 0; a bad argument is bad input, exit code 1 as ExitCode.h says,
        // not one of CLI11's own numbers (105, 106, ...).
        return app.exit(error) == 0 ? segstudio::cli::kExitOk : segstudio::cli::kExitError;
    } catch (const segstudio::run::RunLockedError& error) {
        std::cerr << "segstudio-train: " << error.what() << std::endl;
        return segstudio::cli::kExitRunBusy;
    } catch (const segstudio::engine::CollectiveTimeout& error) {
        std::cerr << "segstudio-train: " << error.what() << std::endl;
        return segstudio::cli::kExitPeerTimeout;
    } catch (const std::exception& error) {
        // EngineError, PackError and DataError all name the file and the problem. Only the first
        // line: an escaped LibTorch error carries a stack trace of thirty more.
        const std::string what = error.what();
        std::cerr << "segstudio-train: " << what.substr(0, what.find('\n')) << std::endl;
        return segstudio::cli::kExitError;
    }
    return exitCode;
}
