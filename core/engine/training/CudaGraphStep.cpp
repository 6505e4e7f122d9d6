#include "CudaGraphStep.h"

#include "engine/runtime/EngineError.h"

#if SEGSTUDIO_HAVE_CUDA_GRAPHS
#include <ATen/autocast_mode.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <chrono>

namespace segstudio::engine {
inline namespace training {

struct CudaGraphStep::Graph {
#if SEGSTUDIO_HAVE_CUDA_GRAPHS
    at::cuda::CUDAGraph graph;
#endif
    torch::Tensor input;
    torch::Tensor labels;
    Outputs outputs;
};

std::string CudaGraphStep::declines(const torch::Device& device, int accumulate, bool gradientSync, bool lossScaled)
{
    if (!device.is_cuda())
        return "CUDA graphs need a CUDA device (training on " + device.str() + ")";
    if (accumulate > 1)
        return "--accumulate splits each step into micro-batches";
    if (gradientSync)
        return "data-parallel training synchronises the gradients inside the step";
    if (lossScaled)
        return "fp16's loss scaling decides on the host whether a step is taken (--amp bf16 or none can be captured)";
#if SEGSTUDIO_HAVE_CUDA_GRAPHS
    return {};
#else
    return "this engine was built without LibTorch's CUDA headers";
#endif
}

CudaGraphStep::CudaGraphStep(torch::nn::Module& model) : m_model(model) {}

CudaGraphStep::~CudaGraphStep() = default;

void CudaGraphStep::dropGradients()
{
    for (auto& parameter : m_model.parameters())
        parameter.mutable_grad().reset();
}

#if SEGSTUDIO_HAVE_CUDA_GRAPHS

namespace {

// Passes run on the capture's stream before it (PyTorch's CUDA graph notes use three).
constexpr int kWarmUpPasses = 3;

bool fits(const torch::Tensor& kept, const torch::Tensor& given)
{
    return kept.sizes() == given.sizes() && kept.scalar_type() == given.scalar_type();
}

// Autocast's cache of cast weights off while capturing: the cache is emptied when the autocast
// scope closes, freeing tensors the graph goes on reading (PyTorch's CUDA graph notes).
class AutocastCacheOff {
public:
    AutocastCacheOff() : m_was(at::autocast::is_autocast_cache_enabled()) { at::autocast::set_autocast_cache_enabled(false); }
    ~AutocastCacheOff() { at::autocast::set_autocast_cache_enabled(m_was); }
    AutocastCacheOff(const AutocastCacheOff&) = delete;
    AutocastCacheOff& operator=(const AutocastCacheOff&) = delete;

private:
    bool m_was;
};

std::vector<torch::Tensor> copiesOf(const std::vector<torch::Tensor>& tensors)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> copies;
    copies.reserve(tensors.size());
    for (const auto& tensor : tensors)
        copies.push_back(tensor.clone());
    return copies;
}

void restore(std::vector<torch::Tensor> tensors, const std::vector<torch::Tensor>& copies)
{
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        tensors[i].copy_(copies[i]);
}

}  // namespace

CudaGraphStep::Outputs CudaGraphStep::run(const torch::Tensor& input, const torch::Tensor& labels, const Pass& pass)
{
    if (!m_graph || !fits(m_graph->input, input) || !fits(m_graph->labels, labels))
        capture(input, labels, pass);
    m_graph->input.copy_(input);
    m_graph->labels.copy_(labels);
    m_graph->graph.replay();
    return m_graph->outputs;
}

void CudaGraphStep::capture(const torch::Tensor& input, const torch::Tensor& labels, const Pass& pass)
{
    const auto started = std::chrono::steady_clock::now();
    m_graph.reset();  // the old graph's memory goes first, its gradients with it
    dropGradients();
    auto graph = std::make_unique<Graph>();
    graph->input = input.clone();
    graph->labels = labels.clone();
    const auto buffers = m_model.buffers();
    const auto savedBuffers = copiesOf(buffers);
    c10::cuda::CUDAGuard onDevice(input.device());
    const auto side = c10::cuda::getStreamFromPool(false, input.device().index());
    c10::cuda::device_synchronize();  // the side stream starts after the batch's copies
    {
        c10::cuda::CUDAStreamGuard onSide(side);
        for (int pass_ = 0; pass_ < kWarmUpPasses; ++pass_) {
            pass(graph->input, graph->labels);
            dropGradients();  // the captured backward makes them, in the graph's memory
        }
        side.synchronize();
        AutocastCacheOff cacheOff;
        graph->graph.capture_begin();
        try {
            graph->outputs = pass(graph->input, graph->labels);
        } catch (...) {
            try {
                graph->graph.capture_end();  // the stream must leave capture mode, whatever the pass threw
            } catch (...) {
            }
            throw;
        }
        graph->graph.capture_end();
    }
    c10::cuda::device_synchronize();
    restore(buffers, savedBuffers);  // the warm-up passes' batch-norm updates undone
    m_graph = std::move(graph);
    ++m_captures;
    m_lastCaptureSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

#else

CudaGraphStep::Outputs CudaGraphStep::run(const torch::Tensor&, const torch::Tensor&, const Pass&)
{
    throw EngineError(declines(torch::Device(torch::kCUDA), 1, false, false));
}

#endif

}  // namespace training
}  // namespace segstudio::engine
