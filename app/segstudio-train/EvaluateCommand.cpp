#include "Commands.h"
#include "MetricsReport.h"

#include "engine/Evaluator.h"
#include "run/RunLayout.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace segstudio::cli {

namespace {

struct EvaluateArguments {
    std::string checkpoint;
    std::string pack;
    engine::EvaluateOptions options;
    bool json = false;
};

}  // namespace

void addEvaluateCommand(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<EvaluateArguments>();
    auto* command = app.add_subcommand("evaluate", "score a checkpoint on a pack (a split): accuracy, IoU per class");
    command->add_option("--checkpoint,-c", args->checkpoint, "checkpoint file, or a run directory (uses its best.pt)")
        ->required();
    command->add_option("--pack,-p", args->pack, "pack of the split to score")->required()->check(CLI::ExistingFile);
    command->add_option("--device", args->options.device, "auto | cpu | cuda | cuda:N")->capture_default_str();
    command->add_option("--batch,-b", args->options.batchSize, "batch size")->capture_default_str();
    command->add_option("--threads", args->options.threads, "CPU threads (0 = all cores)")->capture_default_str();
    command->add_flag("--json", args->json, "print the metrics as one JSON object");
    command->footer("Example:\n  segstudio-train evaluate -c runs/first -p val.pack");
    command->callback([args, &exitCode] {
        const std::string checkpoint = run::RunLayout::resolveCheckpoint(args->checkpoint).string();
        const auto result = engine::evaluateCheckpoint(checkpoint, args->pack, args->options);
        if (args->json) {
            std::cout << nlohmann::json{{"checkpoint", checkpoint},
                                        {"pack", args->pack},
                                        {"model", result.model},
                                        {"global_accuracy", result.metrics.globalAccuracy},
                                        {"mean_accuracy", result.metrics.meanClassAccuracy},
                                        {"mean_iou", result.metrics.meanIoU},
                                        {"weighted_iou", result.metrics.weightedIoU},
                                        {"loss", result.metrics.loss},
                                        {"class_names", result.classNames},
                                        {"class_iou", result.metrics.classIoU}}
                             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                      << std::endl;
        } else {
            std::cout << checkpoint << " (" << result.model << ") on " << args->pack << ":\n"
                      << metricsReport(result.metrics, result.classNames);
        }
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli
