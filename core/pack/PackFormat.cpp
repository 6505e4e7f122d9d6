#include "PackFormat.h"

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

}  // namespace segstudio::pack
