#include "PackFormat.h"

#include <cstddef>
#include <cstring>
#include <vector>

namespace segstudio::pack {

std::uint32_t packHeaderBytes(std::size_t numClasses)
{
    const std::size_t used = sizeof(PackHeaderRecord) + numClasses * sizeof(PackClassRecord);
    constexpr std::size_t page = 4096;
    return static_cast<std::uint32_t>((used + page - 1) / page * page);
}

std::uint64_t fnv1a64(const void* data, std::size_t size, std::uint64_t seed)
{
    constexpr std::uint64_t prime = 0x100000001b3ULL;
    const auto* bytes = static_cast<const unsigned char*>(data);
    std::uint64_t hash = seed;
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= bytes[i];
        hash *= prime;
    }
    return hash;
}

std::uint64_t packChecksum(const std::uint8_t* headerBlock, std::size_t headerBytes, std::uint64_t recordsChecksum)
{
    std::vector<std::uint8_t> block(headerBlock, headerBlock + headerBytes);
    std::memset(block.data() + offsetof(PackHeaderRecord, checksum), 0, sizeof(PackHeaderRecord::checksum));
    return fnv1a64(block.data(), block.size(), recordsChecksum);
}

}  // namespace segstudio::pack
