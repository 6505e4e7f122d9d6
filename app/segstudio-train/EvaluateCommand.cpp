#include "Commands.h"
#include "MetricsReport.h"
#include "WholeNumber.h"

#include "engine/inference/Evaluator.h"
#include "metrics/EvaluationReportFiles.h"
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
    std::string project;
    std::string split = "val";
    std::string report;
    std::string predictions;
    engine::EvaluateOptions options;
    bool json = false;
};

void printReport(const metrics::EvaluationReport& report, bool json)
{
    if (json) {
        std::cout << report.toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
        return;
    }
    const auto metrics = report.metrics();
    std::cout << metricsReport(metrics, report.classNames()) << "mean BF score " << report.meanBoundaryF1() << " over "
              << report.images().size() << " images\n";
}

}  // namespace

void addEvaluateCommand(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<EvaluateArguments>();
    auto* command = app.add_subcommand("evaluate", "score a checkpoint on a pack (a split): accuracy, IoU per class");
    command->add_option("--checkpoint,-c", args->checkpoint, "checkpoint file, or a run directory (uses its best.pt)")
        ->required();
    auto* pack = command->add_option("--pack,-p", args->pack, "pack of the split to score")->check(CLI::ExistingFile);
    auto* project = command->add_option("--project,-P", args->project, "score the project's images of --split instead, by file")
                        ->check(CLI::ExistingFile)
                        ->excludes(pack);
    command->add_option("--split,-s", args->split, "with --project: train | val | test")->capture_default_str()->needs(project);
    command->add_option("--report", args->report,
                        "write the full report there: report.json, classes.csv, images.csv, confusion.csv (with per-image and "
                        "boundary F1 scores)");
    command->add_option("--predictions", args->predictions, "with --project: keep the class, confidence and entropy maps there")
        ->needs(project);
    command->add_option("--device", args->options.device, "auto | cpu | cuda | cuda:N")->capture_default_str();
    command->add_option("--precision", args->options.precision,
                        "auto | fp32 | bf16: bf16 where the device computes it natively (CUDA, a CPU with AVX512-BF16/AMX)")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "fp32", "bf16"}));
    command->add_option("--batch,-b", args->options.batchSize, "batch size")
        ->capture_default_str()
        ->check(WholeNumber(1, 65536));
    command->add_option("--threads", args->options.threads, "CPU threads (0 = all cores)")
        ->capture_default_str()
        ->check(WholeNumber(0, 4096));
    command->add_flag("--json", args->json, "print the metrics as one JSON object");
    command->footer("Examples:\n  segstudio-train evaluate -c runs/first -p val.pack\n"
                    "  segstudio-train evaluate -c runs/first -P camvid.segstudio -s val --report runs/first/evaluation");
    command->callback([args, &exitCode] {
        const std::string checkpoint = run::RunLayout::resolveCheckpoint(args->checkpoint).string();
        if (args->pack.empty() && args->project.empty())
            throw CLI::ValidationError("evaluate", "give the split to score: --pack, or --project with --split");
        if (!args->report.empty())
            metrics::checkReportFolder(args->report);  // before minutes of evaluating, not after
        if (!args->project.empty() || !args->report.empty()) {
            const auto report = args->project.empty()
                                    ? engine::evaluationReport(checkpoint, args->pack, args->options)
                                    : evaluateProjectSplit(checkpoint, args->project, args->split, args->options,
                                                           args->predictions);
            if (!args->report.empty())
                metrics::writeEvaluationReport(report, args->report);
            printReport(report, args->json);
            exitCode = kExitOk;
            return;
        }
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
