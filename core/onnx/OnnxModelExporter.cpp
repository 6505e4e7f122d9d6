#include "OnnxModelExporter.h"

#include "OnnxGraphWriter.h"
#include "engine/inference/LoadedModel.h"
#include "engine/runtime/Runtime.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>
#include <onnx/checker.h>
#include <onnx/defs/attr_proto_util.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace segstudio::onnxexport {

namespace fs = std::filesystem;

namespace {

constexpr float kMean[3] = {0.485f, 0.456f, 0.406f};
constexpr float kStd[3] = {0.229f, 0.224f, 0.225f};

void declare(onnx::ValueInfoProto* value, const std::string& name, int type, const std::vector<std::int64_t>& shape)
{
    value->set_name(name);
    auto* tensor = value->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(type);
    for (const auto size : shape)
        tensor->mutable_shape()->add_dim()->set_dim_value(size);
}

void addMetadata(onnx::ModelProto& model, const std::string& key, const std::string& value)
{
    auto* entry = model.add_metadata_props();
    entry->set_key(key);
    entry->set_value(value);
}

// uint8 image -> Cast -> (x - 255 mean) * 1 / (255 std), as engine::normaliseImages.
engine::GraphValue normalisedInput(OnnxGraphWriter& writer, const torch::Tensor& image)
{
    const auto asFloat = writer.node("Cast", {"image"}, 1, {onnx::MakeAttribute("to", std::int64_t(onnx::TensorProto::FLOAT))})[0];
    const auto mean = torch::tensor({kMean[0] * 255.f, kMean[1] * 255.f, kMean[2] * 255.f}).view({1, 3, 1, 1});
    const auto scale = torch::tensor({1.f / (kStd[0] * 255.f), 1.f / (kStd[1] * 255.f), 1.f / (kStd[2] * 255.f)}).view({1, 3, 1, 1});
    const auto centred = writer.node("Sub", {asFloat, writer.constant(mean, "mean")})[0];
    const auto normalised = writer.node("Mul", {centred, writer.constant(scale, "scale")})[0];
    return {normalised, engine::normaliseImages(image.to(torch::kFloat), false)};
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text;
    for (const auto size : shape)
        text += (text.empty() ? "" : "x") + std::to_string(size);
    return text;
}

// Names the graph's output "logits" and declares it. It must be the value the model's writeGraph()
// returned (plus the prior correction), with the promised shape, and computed by the graph's last
// node: a model that writes a step after its logits, or returns a value no node computes, is
// refused, where renaming "the last node's output" would ship another tensor under that name.
void declareLogitsOutput(onnx::GraphProto& graph, const engine::GraphValue& logits,
                         const std::vector<std::int64_t>& shape)
{
    if (logits.value.sizes().vec() != shape)
        throw std::invalid_argument("the model's final value is " + shapeText(logits.value.sizes().vec()) +
                                    ", not the 1xKxHxW logits " + shapeText(shape));
    if (graph.node_size() == 0)
        throw std::invalid_argument("the graph has no node");
    auto* last = graph.mutable_node(graph.node_size() - 1);
    const auto& outputs = last->output();
    const auto found = std::find(outputs.begin(), outputs.end(), logits.name);
    if (found == outputs.end())
        throw std::invalid_argument("the graph's last node (" + last->op_type() + " " + last->name() +
                                    ") does not compute the logits (" + logits.name +
                                    "): the model writes a step after them");
    last->set_output(int(found - outputs.begin()), "logits");
    declare(graph.add_output(), "logits", onnx::TensorProto::FLOAT, shape);
}

// The output may replace only a model SegStudio exported (its producer says so): never a
// person's file that happens to have the name, nor a folder.
void requireReplaceable(const fs::path& output)
{
    std::error_code error;
    if (!fs::exists(output, error))
        return;
    if (!fs::is_regular_file(output, error))
        throw std::runtime_error(output.string() + ": is not a file: the model goes into a file of its own");
    std::ifstream in(output, std::ios::binary);
    onnx::ModelProto existing;
    if (!existing.ParseFromIstream(&in) || existing.producer_name() != "segstudio")
        throw std::runtime_error(output.string() + ": exists and is not a model SegStudio exported: never replaced "
                                                   "(choose another file name, or move it away)");
}

}  // namespace

OnnxExportResult OnnxModelExporter::exportModel(const OnnxExportRequest& request)
{
    requireReplaceable(request.output);  // before the work, and again at the write
    torch::NoGradGuard noGrad;
    const auto loaded = engine::LoadedModel::fromCheckpoint(request.checkpoint.string(), torch::kCPU);
    loaded.model->eval();
    OnnxExportResult result;
    result.model = loaded.name;
    result.height = request.height > 0 ? request.height : (loaded.trainedHeight > 0 ? loaded.trainedHeight : 360);
    result.width = request.width > 0 ? request.width : (loaded.trainedWidth > 0 ? loaded.trainedWidth : 480);
    const int classes = loaded.model->classes();

    onnx::ModelProto model;
    model.set_ir_version(onnx::IR_VERSION);
    model.set_producer_name("segstudio");  // not "pytorch": OpenCV would force half-pixel resizes
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(13);
    auto& graph = *model.mutable_graph();
    graph.set_name(loaded.name);
    declare(graph.add_input(), "image", onnx::TensorProto::UINT8, {1, 3, result.height, result.width});

    torch::manual_seed(0);
    const auto image = torch::randint(0, 256, {1, 3, result.height, result.width}, torch::kUInt8);
    OnnxGraphWriter writer(graph);
    engine::GraphValue logits;
    try {
        logits = loaded.model->writeGraph(writer, normalisedInput(writer, image));
        if (loaded.correction.active()) {  // the logits predictions take their argmax of (ClassPriorCorrection)
            const auto offsets = loaded.correction.offsets().view({1, -1, 1, 1});
            logits = writer.add(logits, {writer.constant(offsets, "class_prior_correction"), offsets});
        }
    } catch (const std::exception& error) {
        throw std::runtime_error(request.checkpoint.string() + ": cannot write " + loaded.name + " as ONNX: " + error.what());
    }
    try {  // before the comparison, which a value of another shape would broadcast against
        declareLogitsOutput(graph, logits, {1, classes, result.height, result.width});
    } catch (const std::invalid_argument& error) {
        throw std::runtime_error(request.checkpoint.string() + ": cannot write " + loaded.name + " as ONNX: " +
                                 error.what());
    }
    const auto reference = loaded.decisionLogits(engine::normaliseImages(image.to(torch::kFloat), false));
    result.maxGraphDifference = (logits.value - reference).abs().max().item<double>();
    if (!(result.maxGraphDifference < 1e-3))
        throw std::runtime_error(request.checkpoint.string() + ": the written graph computes other logits than the model (max difference " +
                                 std::to_string(result.maxGraphDifference) + ")");
    result.nodes = std::size_t(graph.node_size());

    nlohmann::json names = loaded.classNames, colors = nlohmann::json::object();
    for (const auto& name : loaded.classNames)
        if (request.colors.count(name))
            colors[name] = request.colors.at(name);
    addMetadata(model, "segstudio.model", loaded.name);
    addMetadata(model, "segstudio.classes", names.dump());
    if (!colors.empty())
        addMetadata(model, "segstudio.colors", colors.dump());
    addMetadata(model, "segstudio.input", "image: uint8 RGB, NCHW 1x3x" + std::to_string(result.height) + "x" +
                                              std::to_string(result.width) + ", values 0..255 (normalised inside the graph)");
    addMetadata(model, "segstudio.mean", nlohmann::json(std::vector<float>(kMean, kMean + 3)).dump());
    addMetadata(model, "segstudio.std", nlohmann::json(std::vector<float>(kStd, kStd + 3)).dump());
    addMetadata(model, "segstudio.output", "logits: float 1xKxHxW, K = classes in segstudio.classes order; argmax over K is the label");

    try {
        onnx::checker::check_model(model);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), onnx::ShapeInferenceOptions(true, 1, false));
    } catch (const std::exception& error) {
        throw std::runtime_error(request.output.string() + ": the ONNX checker refuses the graph: " + error.what());
    }
    requireReplaceable(request.output);
    run::writeFileAtomically(request.output, model.SerializeAsString());
    return result;
}

}  // namespace segstudio::onnxexport
