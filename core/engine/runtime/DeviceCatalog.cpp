#include "DeviceCatalog.h"

#include <torch/cuda.h>
#if SEGSTUDIO_HAVE_CUDA_HEADERS
#include <ATen/cuda/CUDAContext.h>
#endif

#include <unistd.h>

#include <thread>

namespace segstudio::engine {
inline namespace runtime {

std::vector<DeviceInfo> availableDevices()
{
    std::vector<DeviceInfo> devices;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const auto pages = ::sysconf(_SC_PHYS_PAGES);
    const auto pageSize = ::sysconf(_SC_PAGE_SIZE);
    devices.push_back({"cpu", std::to_string(cores) + (cores == 1 ? " core" : " cores"),
                       pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) : 0});
    const int gpus = torch::cuda::is_available() ? int(torch::cuda::device_count()) : 0;
    for (int gpu = 0; gpu < gpus; ++gpu) {
        DeviceInfo info{"cuda:" + std::to_string(gpu), "CUDA device " + std::to_string(gpu), 0};
#if SEGSTUDIO_HAVE_CUDA_HEADERS
        const auto* properties = at::cuda::getDeviceProperties(gpu);
        info.description = properties->name;
        info.memoryBytes = std::uint64_t(properties->totalGlobalMem);
#endif
        devices.push_back(std::move(info));
    }
    return devices;
}

}  // namespace runtime
}  // namespace segstudio::engine
