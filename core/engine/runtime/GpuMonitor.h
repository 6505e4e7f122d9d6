#pragma once

#include "run/MetricsRecord.h"

#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace runtime {

// GPU utilisation and memory of the devices a rank trains on, from NVML (libnvidia-ml.so.1,
// which comes with the NVIDIA driver), loaded at run time: the engine neither links nor needs it.
// Requirements: CUDA device indices as the process sees them; CUDA_VISIBLE_DEVICES as a list of
//   numbers is honoured (UUIDs are not: then the indices are taken as NVML's).
// Guarantees: open() returns null when NVML is absent or fails, and the run just logs no GPU
//   metrics; sample() never throws.
class GpuMonitor {
public:
    static std::unique_ptr<GpuMonitor> open(const std::vector<int>& cudaDevices);
    ~GpuMonitor();
    GpuMonitor(const GpuMonitor&) = delete;
    GpuMonitor& operator=(const GpuMonitor&) = delete;

    std::vector<run::GpuSample> sample() const;

    // The NVML index of each CUDA index under CUDA_VISIBLE_DEVICES ("2,3": CUDA 0 is NVML 2);
    // empty or not numeric: the same index.
    static std::vector<int> nvmlIndices(const std::vector<int>& cudaDevices, const std::string& visibleDevices);

private:
    struct Library;
    GpuMonitor() = default;

    std::unique_ptr<Library> m_library;
    std::vector<int> m_cudaDevices;
    std::vector<void*> m_handles;  // nvmlDevice_t per device
};

}  // namespace runtime
}  // namespace segstudio::engine
