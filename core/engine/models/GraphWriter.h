#pragma once

#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace segstudio::engine {
inline namespace models { class GraphWriter; }

inline namespace models {
// A value of a model's graph while it is written out: its name in the graph and the tensor LibTorch
// computes for it on the example input, so every step knows its shape and can be checked.
struct GraphValue {
    std::string name;
    torch::Tensor value;
};


// A module of a model's own (a residual block) that writes itself; GraphWriter::sequential calls it
// for such children, so a Sequential holding them is written like any other.
class GraphWritable {
public:
    virtual ~GraphWritable() = default;
    virtual GraphValue writeGraph(GraphWriter& writer, const GraphValue& x) = 0;
};

// What a model's forward pass is made of, written as a graph by a backend (ONNX in core/onnx).
// Each model mirrors its forward() in writeGraph() with these steps; every step computes its
// result with the model's own modules too, so a backend can compare and a model that drifts from
// its forward fails the export's check rather than shipping a different network.
// Requirements: eval mode, batch 1, fixed input size.
class GraphWriter {
public:
    virtual ~GraphWriter() = default;

    virtual GraphValue conv(const GraphValue& x, torch::nn::Conv2dImpl& conv) = 0;
    virtual GraphValue batchNorm(const GraphValue& x, torch::nn::BatchNorm2dImpl& norm) = 0;
    virtual GraphValue relu(const GraphValue& x) = 0;
    virtual GraphValue relu6(const GraphValue& x) = 0;
    virtual GraphValue add(const GraphValue& a, const GraphValue& b) = 0;
    virtual GraphValue concatChannels(const std::vector<GraphValue>& parts) = 0;
    // Bilinear, align_corners false (half-pixel centres), as F::interpolate does it here.
    virtual GraphValue resizeBilinear(const GraphValue& x, std::int64_t height, std::int64_t width) = 0;
    // A 1x1 map repeated over height x width (ASPP's image-pooling branch).
    virtual GraphValue repeatPixel(const GraphValue& x, std::int64_t height, std::int64_t width) = 0;
    virtual GraphValue globalAveragePool(const GraphValue& x) = 0;
    // 2x2 stride-2 max pool and the index of each maximum within its channel plane, and the unpool.
    virtual std::pair<GraphValue, GraphValue> maxPool2x2(const GraphValue& x) = 0;
    virtual GraphValue maxUnpool2x2(const GraphValue& x, const GraphValue& indices, std::int64_t height, std::int64_t width) = 0;
    virtual GraphValue padBottomRight(const GraphValue& x, std::int64_t rows, std::int64_t cols) = 0;
    virtual GraphValue cropTopLeft(const GraphValue& x, std::int64_t height, std::int64_t width) = 0;

    // A Sequential of Conv2d, BatchNorm2d, ReLU, ReLU6 and GraphWritable modules, in order.
    GraphValue sequential(const GraphValue& x, torch::nn::SequentialImpl& layers)
    {
        GraphValue y = x;
        for (auto& child : layers.children())
            y = layer(y, *child);
        return y;
    }

    // One such module.
    GraphValue layer(const GraphValue& x, torch::nn::Module& module)
    {
        if (auto* c = module.as<torch::nn::Conv2dImpl>())
            return conv(x, *c);
        if (auto* n = module.as<torch::nn::BatchNorm2dImpl>())
            return batchNorm(x, *n);
        if (module.as<torch::nn::ReLUImpl>())
            return relu(x);
        if (module.as<torch::nn::ReLU6Impl>())
            return relu6(x);
        if (auto* own = dynamic_cast<GraphWritable*>(&module))
            return own->writeGraph(*this, x);
        throw std::invalid_argument("cannot write a " + module.name() + " into a graph");
    }
};

}  // namespace models
}  // namespace segstudio::engine
