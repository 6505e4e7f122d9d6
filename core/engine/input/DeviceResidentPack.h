#pragma once

#include "pack/PackReader.h"

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace segstudio::engine {
inline namespace input {

// A pack's images and labels uploaded once to the training device as uint8 (CamVid's 367-image
// train pack at 360x480: 254 MB), so a step gathers its batch there: no host copy, no pinned
// staging, no upload per step. On a GPU the host loader's copy and upload were the step's
// bottleneck ("bound by batch preparation on the host", docs/SCALING.md).
// Guarantees: gather() returns exactly the records' bytes, in the order asked, as the host loader's
// batch would hold them (on a CPU device too: one copy in memory).
class DeviceResidentPack {
public:
    // Whether a run puts this pack on the device: choice is TrainConfig::dataOnDevice (auto | on |
    // off); auto: on a CUDA device when the pack takes at most a third of its memory
    // (deviceMemoryBytes, 0 when unknown: then at most 2 GiB). why says what was decided and why.
    static bool wanted(const std::string& choice, const pack::PackReader& reader, torch::Device device,
                       double deviceMemoryBytes, std::string& why);
    static std::int64_t bytesOf(const pack::PackReader& reader);

    DeviceResidentPack(const pack::PackReader& reader, torch::Device device);

    // N x H x W x C and N x H x W uint8 on the device.
    std::pair<torch::Tensor, torch::Tensor> gather(const std::vector<std::int64_t>& records) const;
    std::int64_t bytes() const;

private:
    torch::Tensor m_images;  // records x H x W x C
    torch::Tensor m_labels;  // records x H x W
};

}  // namespace input
}  // namespace segstudio::engine
