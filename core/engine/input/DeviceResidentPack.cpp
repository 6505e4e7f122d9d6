#include "DeviceResidentPack.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace segstudio::engine {
inline namespace input {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string megabytes(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f MB", bytes / 1e6);
    return text;
}

}  // namespace

std::int64_t DeviceResidentPack::bytesOf(const pack::PackReader& reader)
{
    const auto& spec = reader.spec();
    return std::int64_t(reader.size()) * std::int64_t(spec.imageBytes() + spec.labelBytes());
}

bool DeviceResidentPack::wanted(const std::string& choice, const pack::PackReader& reader, torch::Device device,
                                double deviceMemoryBytes, std::string& why)
{
    const double bytes = double(bytesOf(reader));
    if (choice == "off") {
        why = "batches from the host loader (--data-on-device off)";
        return false;
    }
    if (choice == "on") {
        why = "the training pack (" + megabytes(bytes) + ") on " + device.str() + " (--data-on-device on)";
        return true;
    }
    if (!device.is_cuda()) {
        why = "batches from the host loader (the pack is in memory already on a CPU)";
        return false;
    }
    const double limit = deviceMemoryBytes > 0 ? deviceMemoryBytes / 3.0 : 2.0 * kGiB;
    if (bytes > limit) {
        why = "batches from the host loader: the training pack (" + megabytes(bytes) + ") takes more than a third of " +
              device.str() + "'s memory";
        return false;
    }
    why = "the training pack (" + megabytes(bytes) + ") on " + device.str() + ", uploaded once";
    return true;
}

DeviceResidentPack::DeviceResidentPack(const pack::PackReader& reader, torch::Device device)
{
    const auto& spec = reader.spec();
    const std::int64_t records = std::int64_t(reader.size());
    const auto onDevice = torch::TensorOptions().dtype(torch::kUInt8).device(device);
    m_images = torch::empty({records, spec.height, spec.width, spec.channels}, onDevice);
    m_labels = torch::empty({records, spec.height, spec.width}, onDevice);
    // In chunks of about 64 MB through one host buffer (page-locked for a GPU), so the upload
    // never needs a second copy of the whole pack in host memory.
    const std::int64_t recordBytes = std::int64_t(spec.imageBytes() + spec.labelBytes());
    const std::int64_t chunk = std::clamp<std::int64_t>((std::int64_t(64) << 20) / recordBytes, 1, records);
    const auto hostOptions = torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(device.is_cuda());
    auto images = torch::empty({chunk, spec.height, spec.width, spec.channels}, hostOptions);
    auto labels = torch::empty({chunk, spec.height, spec.width}, hostOptions);
    for (std::int64_t first = 0; first < records; first += chunk) {
        const std::int64_t count = std::min(chunk, records - first);
        auto* imageBytes = images.data_ptr<std::uint8_t>();
        auto* labelBytes = labels.data_ptr<std::uint8_t>();
        for (std::int64_t i = 0; i < count; ++i) {
            std::memcpy(imageBytes + i * spec.imageBytes(), reader.image(std::size_t(first + i)), spec.imageBytes());
            std::memcpy(labelBytes + i * spec.labelBytes(), reader.label(std::size_t(first + i)), spec.labelBytes());
        }
        // Blocking copies: the host buffer is refilled next.
        m_images.narrow(0, first, count).copy_(images.narrow(0, 0, count));
        m_labels.narrow(0, first, count).copy_(labels.narrow(0, 0, count));
    }
}

std::pair<torch::Tensor, torch::Tensor> DeviceResidentPack::gather(const std::vector<std::int64_t>& records) const
{
    // Non-blocking: a blocking copy ends in a stream synchronisation, the wait on the device that
    // this class is here to remove; a pageable source is staged at once, so it may go out of scope.
    const auto index = torch::tensor(records, torch::kLong).to(m_images.device(), /*non_blocking=*/true);
    return {m_images.index_select(0, index), m_labels.index_select(0, index)};
}

std::int64_t DeviceResidentPack::bytes() const
{
    return m_images.numel() + m_labels.numel();
}

}  // namespace input
}  // namespace segstudio::engine
