#include "OnnxGraphWriter.h"

#include <onnx/defs/attr_proto_util.h>

#include <variant>

namespace segstudio::onnxexport {

namespace F = torch::nn::functional;
using engine::GraphValue;

std::string OnnxGraphWriter::fresh(const std::string& hint)
{
    return hint + "_" + std::to_string(m_counter++);
}

std::string OnnxGraphWriter::constant(const torch::Tensor& tensor, const std::string& hint)
{
    const torch::Tensor values = tensor.detach().to(torch::kCPU, torch::kFloat).contiguous();
    auto* initializer = m_graph.add_initializer();
    initializer->set_name(fresh(hint));
    initializer->set_data_type(onnx::TensorProto::FLOAT);
    for (const auto size : values.sizes())
        initializer->add_dims(size);
    initializer->set_raw_data(values.data_ptr<float>(), std::size_t(values.numel()) * sizeof(float));
    return initializer->name();
}

std::string OnnxGraphWriter::int64s(const std::vector<std::int64_t>& values, const std::string& hint)
{
    auto* initializer = m_graph.add_initializer();
    initializer->set_name(fresh(hint));
    initializer->set_data_type(onnx::TensorProto::INT64);
    initializer->add_dims(std::int64_t(values.size()));
    initializer->set_raw_data(values.data(), values.size() * sizeof(std::int64_t));
    return initializer->name();
}

std::vector<std::string> OnnxGraphWriter::node(const std::string& op, const std::vector<std::string>& inputs, int outputs,
                                               const std::vector<onnx::AttributeProto>& attributes)
{
    auto* node = m_graph.add_node();
    node->set_op_type(op);
    node->set_name(fresh(op));
    for (const auto& input : inputs)
        node->add_input(input);
    std::vector<std::string> names;
    for (int i = 0; i < outputs; ++i) {
        names.push_back(fresh(op + "_out"));
        node->add_output(names.back());
    }
    for (const auto& attribute : attributes)
        *node->add_attribute() = attribute;
    return names;
}

namespace {

// Conv padding is a variant (c10::variant in LibTorch 1.13, std::variant in 2.x): `using std::get_if`
// makes the name a template, and argument-dependent lookup finds whichever library's get_if fits.
template <typename Padding>
std::pair<std::int64_t, std::int64_t> explicitPadding(const Padding& padding)
{
    using std::get_if;
    const auto* values = get_if<torch::ExpandingArray<2>>(&padding);
    if (!values)
        throw std::invalid_argument("a convolution with 'same' or 'valid' padding");
    return {(*values)->at(0), (*values)->at(1)};
}

}  // namespace

GraphValue OnnxGraphWriter::conv(const GraphValue& x, torch::nn::Conv2dImpl& conv)
{
    const auto& o = conv.options;
    std::vector<std::string> inputs{x.name, constant(conv.weight, "conv_w")};
    if (conv.bias.defined())
        inputs.push_back(constant(conv.bias, "conv_b"));
    const auto [padH, padW] = explicitPadding(o.padding());
    const auto out = node("Conv", inputs, 1,
                          {onnx::MakeAttribute("kernel_shape", std::vector<std::int64_t>{o.kernel_size()->at(0), o.kernel_size()->at(1)}),
                           onnx::MakeAttribute("strides", std::vector<std::int64_t>{o.stride()->at(0), o.stride()->at(1)}),
                           onnx::MakeAttribute("pads", std::vector<std::int64_t>{padH, padW, padH, padW}),
                           onnx::MakeAttribute("dilations", std::vector<std::int64_t>{o.dilation()->at(0), o.dilation()->at(1)}),
                           onnx::MakeAttribute("group", std::int64_t(o.groups()))});
    return {out[0], conv.forward(x.value)};
}

GraphValue OnnxGraphWriter::batchNorm(const GraphValue& x, torch::nn::BatchNorm2dImpl& norm)
{
    const auto out = node("BatchNormalization",
                          {x.name, constant(norm.weight, "bn_scale"), constant(norm.bias, "bn_bias"),
                           constant(norm.running_mean, "bn_mean"), constant(norm.running_var, "bn_var")},
                          1, {onnx::MakeAttribute("epsilon", float(norm.options.eps()))});
    return {out[0], norm.forward(x.value)};
}

GraphValue OnnxGraphWriter::relu(const GraphValue& x)
{
    return {node("Relu", {x.name})[0], torch::relu(x.value)};
}

// min(max(x, 0), 6) = Relu(x) - Relu(x - 6).
GraphValue OnnxGraphWriter::relu6(const GraphValue& x)
{
    if (m_six.empty())
        m_six = constant(torch::tensor(6.0f), "six");
    const auto shifted = node("Sub", {x.name, m_six})[0];
    const auto out = node("Sub", {node("Relu", {x.name})[0], node("Relu", {shifted})[0]})[0];
    return {out, torch::clamp(x.value, 0, 6)};
}

GraphValue OnnxGraphWriter::add(const GraphValue& a, const GraphValue& b)
{
    return {node("Add", {a.name, b.name})[0], a.value + b.value};
}

GraphValue OnnxGraphWriter::concatChannels(const std::vector<GraphValue>& parts)
{
    std::vector<std::string> names;
    std::vector<torch::Tensor> values;
    for (const auto& part : parts) {
        names.push_back(part.name);
        values.push_back(part.value);
    }
    return {node("Concat", names, 1, {onnx::MakeAttribute("axis", std::int64_t(1))})[0], torch::cat(values, 1)};
}

GraphValue OnnxGraphWriter::resizeBilinear(const GraphValue& x, std::int64_t height, std::int64_t width)
{
    const auto sizes = int64s({x.value.size(0), x.value.size(1), height, width}, "resize_sizes");
    const auto out = node("Resize", {x.name, "", "", sizes}, 1,
                          {onnx::MakeAttribute("mode", std::string("linear")),
                           onnx::MakeAttribute("coordinate_transformation_mode", std::string("pytorch_half_pixel"))});
    const auto value = F::interpolate(x.value, F::InterpolateFuncOptions()
                                                   .size(std::vector<std::int64_t>{height, width})
                                                   .mode(torch::kBilinear)
                                                   .align_corners(false));
    return {out[0], value};
}

GraphValue OnnxGraphWriter::repeatPixel(const GraphValue& x, std::int64_t height, std::int64_t width)
{
    const auto sizes = int64s({x.value.size(0), x.value.size(1), height, width}, "repeat_sizes");
    const auto out = node("Resize", {x.name, "", "", sizes}, 1,
                          {onnx::MakeAttribute("mode", std::string("nearest")),
                           onnx::MakeAttribute("coordinate_transformation_mode", std::string("asymmetric")),
                           onnx::MakeAttribute("nearest_mode", std::string("floor"))});
    return {out[0], x.value.expand({-1, -1, height, width})};
}

GraphValue OnnxGraphWriter::globalAveragePool(const GraphValue& x)
{
    return {node("GlobalAveragePool", {x.name})[0], F::adaptive_avg_pool2d(x.value, F::AdaptiveAvgPool2dFuncOptions(1))};
}

std::pair<GraphValue, GraphValue> OnnxGraphWriter::maxPool2x2(const GraphValue& x)
{
    const auto out = node("MaxPool", {x.name}, 2,
                          {onnx::MakeAttribute("kernel_shape", std::vector<std::int64_t>{2, 2}),
                           onnx::MakeAttribute("strides", std::vector<std::int64_t>{2, 2})});
    auto [values, indices] = torch::max_pool2d_with_indices(x.value, {2, 2}, {2, 2});
    return {{out[0], values}, {out[1], indices}};
}

GraphValue OnnxGraphWriter::maxUnpool2x2(const GraphValue& x, const GraphValue& indices, std::int64_t height, std::int64_t width)
{
    if (height != 2 * x.value.size(2) || width != 2 * x.value.size(3))
        throw std::invalid_argument("MaxUnpool needs even sizes (OpenCV cannot take output_shape)");
    const auto out = node("MaxUnpool", {x.name, indices.name}, 1,
                          {onnx::MakeAttribute("kernel_shape", std::vector<std::int64_t>{2, 2}),
                           onnx::MakeAttribute("strides", std::vector<std::int64_t>{2, 2})});
    return {out[0], torch::max_unpool2d(x.value.contiguous(), indices.value.contiguous(), {height, width})};
}

GraphValue OnnxGraphWriter::padBottomRight(const GraphValue& x, std::int64_t rows, std::int64_t cols)
{
    const auto pads = int64s({0, 0, 0, 0, 0, 0, rows, cols}, "pads");
    const auto out = node("Pad", {x.name, pads}, 1, {onnx::MakeAttribute("mode", std::string("constant"))});
    return {out[0], torch::constant_pad_nd(x.value, {0, cols, 0, rows}, 0.0)};
}

GraphValue OnnxGraphWriter::cropTopLeft(const GraphValue& x, std::int64_t height, std::int64_t width)
{
    const auto out = node("Slice", {x.name, int64s({0, 0}, "starts"), int64s({height, width}, "ends"), int64s({2, 3}, "axes")});
    return {out[0], x.value.narrow(2, 0, height).narrow(3, 0, width)};
}

}  // namespace segstudio::onnxexport
