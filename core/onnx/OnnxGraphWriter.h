#pragma once

#include "engine/models/GraphWriter.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace segstudio::onnxexport {

// engine::GraphWriter onto an ONNX GraphProto (opset 13), in the subset OpenCV 4.6's importer reads:
// constants only as FLOAT/INT64 initializers, ReLU6 as Relu(x) - Relu(x - 6) (OpenCV 4.6 cannot take
// Clip's min/max inputs), Resize with constant sizes and an explicit coordinate mode, MaxUnpool
// without pads or output_shape (sizes are even: SegNet pads to 2^stages), Slice over axes [2, 3].
class OnnxGraphWriter : public engine::GraphWriter {
public:
    explicit OnnxGraphWriter(onnx::GraphProto& graph) : m_graph(graph) {}

    engine::GraphValue conv(const engine::GraphValue& x, torch::nn::Conv2dImpl& conv) override;
    engine::GraphValue batchNorm(const engine::GraphValue& x, torch::nn::BatchNorm2dImpl& norm) override;
    engine::GraphValue relu(const engine::GraphValue& x) override;
    engine::GraphValue relu6(const engine::GraphValue& x) override;
    engine::GraphValue add(const engine::GraphValue& a, const engine::GraphValue& b) override;
    engine::GraphValue concatChannels(const std::vector<engine::GraphValue>& parts) override;
    engine::GraphValue resizeBilinear(const engine::GraphValue& x, std::int64_t height, std::int64_t width) override;
    engine::GraphValue repeatPixel(const engine::GraphValue& x, std::int64_t height, std::int64_t width) override;
    engine::GraphValue globalAveragePool(const engine::GraphValue& x) override;
    std::pair<engine::GraphValue, engine::GraphValue> maxPool2x2(const engine::GraphValue& x) override;
    engine::GraphValue maxUnpool2x2(const engine::GraphValue& x, const engine::GraphValue& indices, std::int64_t height,
                                    std::int64_t width) override;
    engine::GraphValue padBottomRight(const engine::GraphValue& x, std::int64_t rows, std::int64_t cols) override;
    engine::GraphValue cropTopLeft(const engine::GraphValue& x, std::int64_t height, std::int64_t width) override;

    // A FLOAT initializer holding the tensor (any shape), or an INT64 one holding the values.
    std::string constant(const torch::Tensor& tensor, const std::string& hint);
    std::string int64s(const std::vector<std::int64_t>& values, const std::string& hint);
    // A node with inputs and as many fresh outputs as asked; returns their names.
    std::vector<std::string> node(const std::string& op, const std::vector<std::string>& inputs, int outputs = 1,
                                  const std::vector<onnx::AttributeProto>& attributes = {});

private:
    std::string fresh(const std::string& hint);

    onnx::GraphProto& m_graph;
    int m_counter = 0;
    std::string m_six;  // the one initializer every ReLU6 subtracts
};

}  // namespace segstudio::onnxexport
