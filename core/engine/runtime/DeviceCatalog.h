#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace runtime {

// The devices this process can train on: "cpu" first (cores, memory), then "cuda:K" for each GPU.
struct DeviceInfo {
    std::string name;         // as --device takes it
    std::string description;  // "8 cores", "NVIDIA H100 80GB HBM3"
    std::uint64_t memoryBytes = 0;
};

std::vector<DeviceInfo> availableDevices();

}  // namespace runtime
}  // namespace segstudio::engine
