#include "Commands.h"
#include "MetricsReport.h"
#include "PackCommand.h"
#include "TrainCommand.h"
#include "WholeNumber.h"

#include "data/project/Project.h"
#include "data/project/SyntheticDatasetGenerator.h"
#include "engine/inference/Evaluator.h"
#include "engine/runtime/StopFlag.h"
#include "engine/training/Trainer.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

namespace segstudio::cli {

namespace {

struct DemoArguments {
    std::string dir = "segstudio-demo";
    std::string project;  // empty = the synthetic street scenes
    int images = 40;
    int height = 96;
    int width = 128;
    int epochs = 30;
    std::string model = "segnet-tiny";
    std::string device = "auto";
};

}  // namespace

void addDemoCommand(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<DemoArguments>();
    auto* command = app.add_subcommand("demo", "end to end in under a minute: synthetic dataset -> packs -> short training -> metrics");
    command->add_option("--dir,-d", args->dir, "working folder (dataset, packs, run)")->capture_default_str();
    command->add_option("--project,-P", args->project, "use this project instead of the synthetic dataset")
        ->check(CLI::ExistingFile);
    // Checked before any work: --images -5 once generated images until the disk was full. At least
    // 10 images give the 60/20/20 split a training batch of 4 and a validation image.
    command->add_option("--images", args->images, "synthetic images to generate")
        ->capture_default_str()
        ->check(WholeNumber(10, 10000));
    command->add_option("--height", args->height, "pack height")->capture_default_str()->check(WholeNumber(16, 4096));
    command->add_option("--width", args->width, "pack width")->capture_default_str()->check(WholeNumber(16, 4096));
    command->add_option("--epochs,-e", args->epochs, "epochs")->capture_default_str()->check(WholeNumber(1, 10000));
    command->add_option("--model,-m", args->model, "model name (see train --help)")->capture_default_str();
    command->add_option("--device", args->device, "auto | cpu | cuda")->capture_default_str();
    command->footer("Example:\n  segstudio-train demo --dir /tmp/demo\nThen look at /tmp/demo/run (config.json, metrics.jsonl, checkpoints/).");
    command->callback([args, &exitCode] {
        namespace fs = std::filesystem;
        const auto start = std::chrono::steady_clock::now();
        const fs::path dir = args->dir;
        fs::create_directories(dir);
        data::Project project;
        if (args->project.empty()) {
            std::cout << "generating " << args->images << " synthetic street scenes in " << (dir / "dataset").string()
                      << std::endl;
            const data::SyntheticDatasetGenerator generator(args->height, args->width);
            project = generator.writeProject(dir / "dataset", std::size_t(args->images), /*seed=*/1);
        } else {
            project = data::Project::load(args->project);
        }
        packSplit(project, data::Split::Train, dir / "train.pack", args->height, args->width, true);
        packSplit(project, data::Split::Val, dir / "val.pack", args->height, args->width, true);

        // The demo's own short schedule on a tiny dataset: a constant Adam rate, batch 4.
        engine::TrainConfig config = engine::TrainConfig::segnetRecipe();
        config.trainPack = (dir / "train.pack").string();
        config.valPack = (dir / "val.pack").string();
        config.runDir = (dir / "run").string();
        config.model = args->model;
        config.epochs = args->epochs;
        config.device = args->device;
        config.optimizer = "adam";
        config.learningRate = 5e-3;
        config.weightDecay = 1e-4;
        config.logInterval = 5;
        fs::remove_all(config.runDir);  // a demo always starts fresh
        engine::installStopSignalHandlers();  // before the trainer starts (TrainCommand.cpp)
        engine::Trainer trainer(config);
        exitCode = runTraining(trainer, /*printSummary=*/false);
        if (exitCode != kExitOk)
            return;
        const auto result = engine::evaluateCheckpoint(trainer.bestCheckpointPath(), config.valPack,
                                                       engine::EvaluateOptions{args->device, 4, 0});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "\ndemo finished in " << int(seconds) << " s. Best checkpoint on the validation split:\n"
                  << metricsReport(result.metrics, result.classNames) << "run directory: " << config.runDir << std::endl;
    });
}

}  // namespace segstudio::cli
