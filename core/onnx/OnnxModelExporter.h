#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace segstudio::onnxexport {

struct OnnxExportRequest {
    std::filesystem::path checkpoint;
    std::filesystem::path output;
    int height = 0;  // 0: the size the model was trained on (360x480 when the checkpoint does not say)
    int width = 0;
    std::map<std::string, std::vector<int>> colors;  // class name -> RGB, for the metadata (optional)
};

struct OnnxExportResult {
    std::string model;
    int height = 0;
    int width = 0;
    std::size_t nodes = 0;
    double maxGraphDifference = 0;  // |logits of the written steps - model.forward()|, must be ~0
};

// Writes a trained model as an ONNX file (opset 13, IR 8): input "image" uint8 1x3xHxW RGB 0..255,
// the engine's ImageNet normalisation inside the graph, output "logits" float 1xKxHxW. The graph
// is the model's own writeGraph() steps; the export checks that those steps compute what forward()
// computes on a random image (and that the graph's last node computes the 1xKxHxW value the model
// returned, which becomes "logits"), then runs ONNX's checker and strict shape inference, then writes the
// file atomically. Metadata (metadata_props): segstudio.classes (JSON names), segstudio.colors
// (JSON, when known), segstudio.model, segstudio.input, segstudio.mean / segstudio.std.
// Throws std::runtime_error naming the checkpoint or the output on any failure. The output is new,
// or a model SegStudio exported (its producer is "segstudio"): any other file is never replaced.
class OnnxModelExporter {
public:
    static OnnxExportResult exportModel(const OnnxExportRequest& request);
};

}  // namespace segstudio::onnxexport
