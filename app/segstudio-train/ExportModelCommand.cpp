// export-model: a trained model as an ONNX file, checked by OpenCV's DNN module before it is kept.
#include "Commands.h"
#include "ImageSide.h"
#include "WholeNumber.h"

#include "data/project/Project.h"
#include "deploy/OpenCvOnnxModel.h"
#include "onnx/OnnxModelExporter.h"
#include "run/RunLayout.h"

#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace segstudio::cli {

namespace {

std::string quotedList(const std::vector<std::string>& names)
{
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "'" : ", '") + name + "'";
    return text;
}

// The colours go into the file by class name: a project with another class list leaves some of
// the model's classes without one. The model is still written (colours are only metadata, and
// those of the classes both have are right), but the user hears which classes differ: a silent
// file without colours is what issue 46 met. Extra classes of the project alone harm nothing.
void warnOfClassesWithoutColour(const std::vector<std::string>& modelClasses, const data::Project& project,
                                const std::string& projectFile)
{
    std::set<std::string> projectNames;
    for (const auto& c : project.schema().classes())
        projectNames.insert(c.name);
    const std::set<std::string> modelNames(modelClasses.begin(), modelClasses.end());
    std::vector<std::string> uncoloured, unknown;
    for (const auto& name : modelClasses)
        if (!projectNames.count(name))
            uncoloured.push_back(name);
    for (const auto& name : projectNames)
        if (!modelNames.count(name))
            unknown.push_back(name);
    if (uncoloured.empty())
        return;
    std::cerr << "segstudio-train: warning: " << projectFile << " lacks classes of the model: " << uncoloured.size()
              << " of the model's " << modelClasses.size() << " classes get no colour in the file ("
              << quotedList(uncoloured) << ")";
    if (!unknown.empty())
        std::cerr << "; the project has " << quotedList(unknown) << " instead";
    std::cerr << std::endl;
}

}  // namespace

void addExportModelCommand(CLI::App& app, int& exitCode)
{
    struct Args {
        std::string checkpoint, output, project;
        int height = 0, width = 0;
    };
    auto a = std::make_shared<Args>();
    auto* command = app.add_subcommand("export-model", "write a trained model as ONNX (opset 13) for OpenCV, ONNX Runtime, TensorRT");
    command->add_option("--checkpoint,-c", a->checkpoint, "checkpoint file, or a run directory (uses its best.pt)")->required();
    command->add_option("--output,-o", a->output, "the .onnx file to write")->required();
    command->add_option("--height", a->height, "input height (default: the size the model was trained on)")
        ->check(WholeNumber(1, kMaxImageSide));
    command->add_option("--width", a->width, "input width (default: the size the model was trained on)")
        ->check(WholeNumber(1, kMaxImageSide));
    command->add_option("--project,-P", a->project, "a project whose class colours go into the file's metadata")
        ->check(CLI::ExistingFile);
    command->footer("The file takes image: uint8 RGB 1x3xHxW (0..255; normalised inside) and gives logits: float 1xKxHxW.\n"
                    "Example:\n  segstudio-train export-model -c runs/first -o first.onnx\n"
                    "  trtexec --onnx=first.onnx --fp16   (TensorRT, on the GPU machine)");
    command->callback([a, &exitCode] {
        onnxexport::OnnxExportRequest request;
        request.checkpoint = run::RunLayout::resolveCheckpoint(a->checkpoint);
        request.output = a->output;
        request.height = a->height;
        request.width = a->width;
        std::optional<data::Project> project;
        if (!a->project.empty()) {
            project = data::Project::load(a->project);
            for (const auto& c : project->schema().classes())
                request.colors[c.name] = {c.color.r, c.color.g, c.color.b};
        }
        const auto result = onnxexport::OnnxModelExporter::exportModel(request);
        // The independent check: OpenCV's importer reads it and runs it once.
        deploy::OpenCvOnnxModel opened(request.output);
        opened.logits(cv::Mat(opened.inputSize(), CV_8UC3, cv::Scalar(0, 0, 0)));
        if (project)
            warnOfClassesWithoutColour(opened.classNames(), *project, a->project);
        std::cout << "wrote " << a->output << ": " << result.model << ", " << result.nodes << " nodes, input "
                  << result.height << "x" << result.width << ", " << opened.classes() << " classes (OpenCV reads and runs it)"
                  << std::endl;
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli
