#include "GpuMonitor.h"

#include <cstdlib>
#include <dlfcn.h>
#include <sstream>

namespace segstudio::engine {
inline namespace runtime {

namespace {

// The few NVML declarations used here (nvml.h, stable ABI since driver 3xx).
using NvmlReturn = int;
constexpr NvmlReturn kNvmlSuccess = 0;

}  // namespace

struct GpuMonitor::Library {
    // nvml.h's structs, here rather than in the anonymous namespace: a member's type must not
    // be local to one translation unit (the unity build joins several).
    struct NvmlUtilization {
        unsigned int gpu;
        unsigned int memory;
    };
    struct NvmlMemory {
        unsigned long long total;
        unsigned long long free;
        unsigned long long used;
    };

    void* handle = nullptr;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*deviceByIndex)(unsigned int, void**) = nullptr;
    NvmlReturn (*utilization)(void*, NvmlUtilization*) = nullptr;
    NvmlReturn (*memory)(void*, NvmlMemory*) = nullptr;

    ~Library()
    {
        if (shutdown)
            shutdown();
        if (handle)
            ::dlclose(handle);
    }

    template <typename Function>
    bool resolve(Function& function, const char* name)
    {
        function = reinterpret_cast<Function>(::dlsym(handle, name));
        return function != nullptr;
    }
};

std::vector<int> GpuMonitor::nvmlIndices(const std::vector<int>& cudaDevices, const std::string& visibleDevices)
{
    std::vector<int> visible;
    std::stringstream list(visibleDevices);
    for (std::string item; std::getline(list, item, ',');) {
        char* end = nullptr;
        const long index = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || index < 0)
            return cudaDevices;  // UUIDs or garbage: no mapping known
        visible.push_back(int(index));
    }
    std::vector<int> indices;
    for (int device : cudaDevices)
        indices.push_back(device < int(visible.size()) ? visible[std::size_t(device)] : device);
    return indices;
}

std::unique_ptr<GpuMonitor> GpuMonitor::open(const std::vector<int>& cudaDevices)
{
    auto library = std::make_unique<Library>();
    library->handle = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library->handle)
        return nullptr;
    if (!library->resolve(library->init, "nvmlInit_v2") || !library->resolve(library->shutdown, "nvmlShutdown") ||
        !library->resolve(library->deviceByIndex, "nvmlDeviceGetHandleByIndex_v2") ||
        !library->resolve(library->utilization, "nvmlDeviceGetUtilizationRates") ||
        !library->resolve(library->memory, "nvmlDeviceGetMemoryInfo"))
        return nullptr;
    if (library->init() != kNvmlSuccess) {
        library->shutdown = nullptr;  // nothing to shut down
        return nullptr;
    }
    std::unique_ptr<GpuMonitor> monitor(new GpuMonitor);
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    const auto indices = nvmlIndices(cudaDevices, visible ? visible : "");
    for (std::size_t i = 0; i < indices.size(); ++i) {
        void* device = nullptr;
        if (library->deviceByIndex(unsigned(indices[i]), &device) != kNvmlSuccess)
            return nullptr;
        monitor->m_handles.push_back(device);
    }
    monitor->m_cudaDevices = cudaDevices;
    monitor->m_library = std::move(library);
    return monitor;
}

GpuMonitor::~GpuMonitor() = default;

std::vector<run::GpuSample> GpuMonitor::sample() const
{
    std::vector<run::GpuSample> samples;
    for (std::size_t i = 0; i < m_handles.size(); ++i) {
        Library::NvmlUtilization utilization{};
        Library::NvmlMemory memory{};
        if (m_library->utilization(m_handles[i], &utilization) != kNvmlSuccess ||
            m_library->memory(m_handles[i], &memory) != kNvmlSuccess)
            continue;
        samples.push_back({m_cudaDevices[i], utilization.gpu / 100.0, double(memory.used), double(memory.total)});
    }
    return samples;
}

}  // namespace runtime
}  // namespace segstudio::engine
