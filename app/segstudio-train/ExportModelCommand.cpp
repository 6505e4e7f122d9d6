// export-model: a trained model as an ONNX file, checked by OpenCV's DNN module before it is kept.
#include "Commands.h"

#include "data/Project.h"
#include "deploy/OpenCvOnnxModel.h"
#include "onnx/OnnxModelExporter.h"
#include "run/RunLayout.h"

#include <iostream>
#include <memory>

namespace segstudio::cli {

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
    command->add_option("--height", a->height, "input height (default: the size the model was trained on)");
    command->add_option("--width", a->width, "input width (default: the size the model was trained on)");
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
        if (!a->project.empty()) {
            // Held in a local: a range-for over load(...).schema().classes() would outlive the
            // temporary project it points into.
            const auto project = data::Project::load(a->project);
            for (const auto& c : project.schema().classes())
                request.colors[c.name] = {c.color.r, c.color.g, c.color.b};
        }
        const auto result = onnxexport::OnnxModelExporter::exportModel(request);
        // The independent check: OpenCV's importer reads it and runs it once.
        deploy::OpenCvOnnxModel opened(request.output);
        opened.logits(cv::Mat(opened.inputSize(), CV_8UC3, cv::Scalar(0, 0, 0)));
        std::cout << "wrote " << a->output << ": " << result.model << ", " << result.nodes << " nodes, input "
                  << result.height << "x" << result.width << ", " << opened.classes() << " classes (OpenCV reads and runs it)"
                  << std::endl;
        exitCode = kExitOk;
    });
}

}  // namespace segstudio::cli
