#include "Runtime.h"

#include "WorldInfo.h"
#include "EngineError.h"

#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#include <cstdlib>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace segstudio::engine {
inline namespace runtime {

namespace {

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
bool autocastEnabled(bool cuda) { return at::autocast::is_autocast_enabled(cuda ? at::kCUDA : at::kCPU); }
void setAutocast(bool cuda, bool enabled, at::ScalarType dtype)
{
    at::autocast::set_autocast_dtype(cuda ? at::kCUDA : at::kCPU, dtype);
    at::autocast::set_autocast_enabled(cuda ? at::kCUDA : at::kCPU, enabled);
}
#else
bool autocastEnabled(bool cuda) { return cuda ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled(); }
void setAutocast(bool cuda, bool enabled, at::ScalarType dtype)
{
    if (cuda) {
        at::autocast::set_autocast_gpu_dtype(dtype);
        at::autocast::set_enabled(enabled);
    } else {
        at::autocast::set_autocast_cpu_dtype(dtype);
        at::autocast::set_cpu_enabled(enabled);
    }
}
#endif

}  // namespace

torch::Device chooseDevice(const std::string& name)
{
    if (name == "auto")
        return torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
    torch::Device device(torch::kCPU);
    try {
        device = torch::Device(name);
    } catch (const c10::Error&) {
        throw EngineError("unknown device '" + name + "' (use auto, cpu, cuda or cuda:N)");
    }
    if (device.is_cuda() && !torch::cuda::is_available())
        throw EngineError("device '" + name + "' requested but this LibTorch build or machine has no CUDA");
    return device;
}

void makeCurrentDevice(torch::Device device)
{
    if (device.is_cuda() && device.has_index())
        c10::impl::getDeviceGuardImpl(device.type())->setDevice(device);
}

void configureRuntime(int threads, bool deterministic, bool cudnnBenchmark)
{
#if defined(__GLIBC__)
    // Activations of a 360x480 batch are tens of MB; glibc serves them by mmap and gives them back
    // on free, so every iteration page-faults them in again (seen as high system time). Keeping
    // freed memory in the heap (up to glibc's largest mmap threshold) avoids most of that.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
#endif
    // All cores, or the share a data-parallel launcher gave each of its workers on this machine.
    int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    if (const char* share = std::getenv("SEGSTUDIO_THREADS"))
        cores = std::max(1, std::atoi(share));
    torch::set_num_threads(threads > 0 ? threads : cores);
    at::globalContext().setDeterministicAlgorithms(deterministic, /*warn_only=*/false);
    at::globalContext().setDeterministicCuDNN(deterministic);
    at::globalContext().setBenchmarkCuDNN(cudnnBenchmark && !deterministic);
}

torch::Tensor imagesToDevice(const torch::Tensor& hostImages, torch::Device device)
{
    // Copy the compact uint8 batch, convert on the device: 4x less traffic than copying floats.
    // contiguous(): the permuted view has channels-last strides, which make every later per-sample
    // pad/flip/narrow several times slower on the CPU.
    return hostImages.to(device, /*non_blocking=*/hostImages.is_pinned())
        .permute({0, 3, 1, 2})
        .contiguous()
        .to(torch::kFloat);
}

torch::Tensor normaliseImages(const torch::Tensor& images, bool channelsLast)
{
    const auto options = torch::TensorOptions().dtype(torch::kFloat).device(images.device());
    const auto mean = torch::tensor({0.485f * 255.f, 0.456f * 255.f, 0.406f * 255.f}, options).view({1, 3, 1, 1});
    const auto scale = torch::tensor({1.f / (0.229f * 255.f), 1.f / (0.224f * 255.f), 1.f / (0.225f * 255.f)}, options)
                           .view({1, 3, 1, 1});
    auto normalised = (images - mean) * scale;
    return channelsLast ? normalised.contiguous(at::MemoryFormat::ChannelsLast) : normalised.contiguous();
}

bool cpuComputesBf16()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bf16");
#else
    return false;
#endif
}

std::string resolveAmp(const std::string& amp, torch::Device device, bool cpuBf16, bool modelBf16OnCpu)
{
    if (amp != "auto")
        return amp;
    return !device.is_cuda() && cpuBf16 && modelBf16OnCpu ? "bf16" : "none";
}

std::string inferencePrecision(const std::string& precision, torch::Device device, bool cpuBf16)
{
    const bool native = device.is_cuda() || cpuBf16;
    if (precision == "fp32")
        return "none";
    if (precision == "auto")
        return native ? "bf16" : "none";
    if (precision != "bf16")
        throw EngineError("--precision " + precision + ": not a precision (auto, fp32 or bf16)");
    if (!native)
        throw EngineError("--precision bf16: this CPU has no native bf16 (AVX512-BF16 or AMX), where it is slower than "
                          "fp32; use --precision fp32 or auto");
    return "bf16";
}

bool autocasts(const std::string& amp, torch::Device device)
{
    return device.is_cuda() ? amp != "none" : amp == "bf16";
}

AutocastScope::AutocastScope(const std::string& amp, torch::Device device)
    : m_cuda(device.is_cuda())
{
    if (!autocasts(amp, device))
        return;
    m_active = true;
    m_previous = autocastEnabled(m_cuda);
    at::autocast::increment_nesting();
    setAutocast(m_cuda, true, amp == "bf16" ? at::kBFloat16 : at::kHalf);
}

AutocastScope::~AutocastScope()
{
    if (!m_active)
        return;
    // As torch.autocast's __exit__: drop the cast cache when the outermost scope closes.
    if (at::autocast::decrement_nesting() == 0)
        at::autocast::clear_cache();
    setAutocast(m_cuda, m_previous, m_cuda ? at::kHalf : at::kBFloat16);
}

}  // namespace runtime
}  // namespace segstudio::engine

namespace segstudio::engine {
inline namespace runtime {

std::string deviceForRank(const std::string& requested, int localRank)
{
    if (requested != "auto" && requested != "cuda")
        return requested;
    if (torch::cuda::is_available())
        return "cuda:" + std::to_string(localRank);
    if (requested == "cuda")
        throw EngineError("device cuda was asked for, but CUDA is not available in this build or on this machine");
    return "cpu";
}

std::string backendForDevice(const std::string& device) { return device.rfind("cuda", 0) == 0 ? "nccl" : "gloo"; }

}  // namespace runtime
}  // namespace segstudio::engine
