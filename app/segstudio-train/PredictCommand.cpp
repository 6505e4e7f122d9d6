#include "Commands.h"

#include "data/ClassSchema.h"
#include "data/DataError.h"
#include "data/ImageIO.h"
#include "data/LabelMapIO.h"
#include "data/Project.h"
#include "engine/Predictor.h"
#include "run/RunLayout.h"

#include <opencv2/core.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace segstudio::cli {

namespace {

struct PredictArguments {
    std::string checkpoint;
    std::string out = "predictions";
    std::string project;
    std::vector<std::string> images;
    std::string device = "auto";
    double opacity = 0.5;
};

// Colours for the label maps: the project's schema, CamVid's for an 11-class model, else a
// generated palette named after the checkpoint's classes.
data::ClassSchema schemaFor(const PredictArguments& args, const engine::Predictor& predictor)
{
    if (!args.project.empty())
        return data::Project::load(args.project).schema();
    if (predictor.classes() == 11)
        return data::ClassSchema::camVid();
    std::vector<data::LabelClass> classes;
    for (int c = 0; c < predictor.classes(); ++c) {
        const auto hue = std::uint8_t((c * 97) % 256);
        classes.push_back({c, predictor.classNames()[std::size_t(c)],
                           {hue, std::uint8_t(255 - hue), std::uint8_t((c * 53 + 90) % 256)}, {}});
    }
    return data::ClassSchema(classes);
}

}  // namespace

void addPredictCommand(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<PredictArguments>();
    auto* command = app.add_subcommand("predict", "label maps and colour overlays for images, from a checkpoint");
    command->add_option("--checkpoint,-c", args->checkpoint, "checkpoint file, or a run directory (uses its best.pt)")
        ->required();
    command->add_option("--out,-o", args->out, "output folder")->capture_default_str();
    command->add_option("--project,-P", args->project, "take class colours from this project")->check(CLI::ExistingFile);
    command->add_option("--device", args->device, "auto | cpu | cuda")->capture_default_str();
    command->add_option("--opacity", args->opacity, "overlay opacity of the labels")->capture_default_str()->check(CLI::Range(0.0, 1.0));
    command->add_option("images", args->images, "images to label (PNG, JPEG, ...)")->required()->check(CLI::ExistingFile);
    command->footer("Writes OUT/<name>.png (palette label map, class ids) and OUT/<name>_overlay.png.\n"
                    "Example:\n  segstudio-train predict -c runs/first -o predictions photos/*.jpg");
    command->callback([args, &exitCode] {
        namespace fs = std::filesystem;
        engine::Predictor predictor(run::RunLayout::resolveCheckpoint(args->checkpoint).string(), args->device);
        const auto schema = schemaFor(*args, predictor);
        fs::create_directories(args->out);
        for (const auto& file : args->images) {
            const cv::Mat image = data::readImageRgb(file);
            cv::Mat rgb = image.isContinuous() ? image : image.clone();
            const auto ids = predictor.predict(rgb.ptr<std::uint8_t>(), rgb.rows, rgb.cols);
            const cv::Mat labels = cv::Mat(rgb.rows, rgb.cols, CV_8UC1, const_cast<std::uint8_t*>(ids.data())).clone();
            const fs::path stem = fs::path(args->out) / fs::path(file).stem();
            data::writeLabelMap(stem.string() + ".png", labels, schema);
            cv::Mat overlay;
            cv::addWeighted(rgb, 1.0 - args->opacity, data::colorize(labels, schema), args->opacity, 0.0, overlay);
            data::writeImageRgb(stem.string() + "_overlay.png", overlay);
            std::cout << file << " -> " << stem.string() << ".png, " << stem.string() << "_overlay.png" << std::endl;
        }
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli
