#pragma once

#include <torch/torch.h>

#include <string>

namespace segstudio::engine {
inline namespace training { struct TrainConfig; }

inline namespace runtime {
// The one place that picks the device and sets process-wide LibTorch switches.
// "auto" = CUDA when available, else CPU; throws EngineError for CUDA requested but absent.
torch::Device chooseDevice(const std::string& name);
// Makes a CUDA device the calling thread's current one (CUDA's current device is per thread), so
// its contexts, pinned buffers and default streams belong to that GPU, not to GPU 0; a CPU device
// changes nothing. Every data-parallel rank calls it for its own GPU, in each of its threads.
void makeCurrentDevice(torch::Device device);
// CPU threads (0 = all cores), deterministic algorithms, cuDNN benchmark (off when deterministic).
void configureRuntime(int threads, bool deterministic, bool cudnnBenchmark);

// Uint8 N x H x W x 3 host batch -> float N x 3 x H x W in 0..255 on device.
torch::Tensor imagesToDevice(const torch::Tensor& hostImages, torch::Device device);
// 0..255 RGB -> ImageNet-normalised model input, channels-last when asked.
torch::Tensor normaliseImages(const torch::Tensor& images, bool channelsLast);

// Whether this CPU computes bf16 natively (AVX512-BF16; every CPU with AMX has it too): only then
// is bf16 faster than fp32 on a CPU. Elsewhere oneDNN emulates it (slower) or has no kernel at all.
bool cpuComputesBf16();
// The precision a run trains in: amp as asked; "auto" is bf16 on a CPU that computes it natively
// for a model that trains in bf16 there (ModelRegistry::trainsInBf16OnCpu), none elsewhere (GPUs
// train fp32 unless asked, as before "auto" existed).
std::string resolveAmp(const std::string& amp, torch::Device device, bool cpuBf16, bool modelBf16OnCpu);

// The precision predictions and evaluations run in (issue 65.3), as amp names it: "fp32" is
// "none"; "bf16" is bf16 (CUDA, or a CPU that computes it natively; elsewhere refused, naming why);
// "auto" is bf16 where it is native (CUDA, AVX512-BF16/AMX), fp32 elsewhere. EngineError for any
// other name. cpuBf16: cpuComputesBf16(), given so that tests can ask for either CPU.
std::string inferencePrecision(const std::string& precision, torch::Device device, bool cpuBf16);

// Whether amp autocasts on this device: "bf16" and "fp16" on CUDA, "bf16" on a CPU (oneDNN's bf16
// convolutions; fp16 has no fast CPU path, and an fp16 run resumed without CUDA goes on in fp32).
bool autocasts(const std::string& amp, torch::Device device);

// Autocast in the dtype of amp where autocasts() says so, else a no-op.
// Covers the API change between LibTorch 1.x and 2.4+.
class AutocastScope {
public:
    AutocastScope(const std::string& amp, torch::Device device);
    ~AutocastScope();
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    bool m_cuda = false;
    bool m_active = false;
    bool m_previous = false;
};

}  // namespace runtime
}  // namespace segstudio::engine
