#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace segstudio::pack {

// On-disk layout of a training pack: a fixed header, a class table, then every image (HWC, uint8,
// RGB) back to back and then every label map (HW, uint8, class id, 255 = unlabelled) back to back.
// Images and labels live in two contiguous blocks so a batch can be gathered without decoding and
// the whole file can be memory-mapped.
constexpr char kPackMagic[8] = {'S', 'S', 'P', 'A', 'C', 'K', '0', '1'};
// Version 2's checksum covers the header and the class table too (version 1's only the records);
// readers accept both, writers write 2.
constexpr std::uint32_t kPackVersion = 2;
constexpr std::uint32_t kOldestPackVersion = 1;
constexpr std::uint8_t kUnlabelled = 255;
constexpr std::size_t kClassNameBytes = 48;
constexpr std::size_t kMaxClasses = 255;

struct PackClass {
    std::string name;
    std::uint64_t pixelCount = 0;       // pixels labelled with this class
    std::uint64_t imagePixelCount = 0;  // pixels of the images that contain this class
};

struct PackSpec {
    std::uint32_t height = 0;
    std::uint32_t width = 0;
    std::uint32_t channels = 3;
    std::vector<PackClass> classes;

    std::size_t imageBytes() const { return std::size_t(height) * width * channels; }
    std::size_t labelBytes() const { return std::size_t(height) * width; }
};

// Raw header record, exactly as stored (little-endian, 64 bytes before the class table).
struct PackHeaderRecord {
    char magic[8];
    std::uint32_t version;
    std::uint32_t headerBytes;  // offset of the image block; multiple of 4096
    std::uint32_t height;
    std::uint32_t width;
    std::uint32_t channels;
    std::uint32_t numClasses;
    std::uint64_t count;
    std::uint64_t checksum;  // see packChecksum()
    std::uint64_t reserved;
};
static_assert(sizeof(PackHeaderRecord) == 56, "pack header must keep its on-disk size");

struct PackClassRecord {
    char name[kClassNameBytes];
    std::uint64_t pixelCount;
    std::uint64_t imagePixelCount;
};
static_assert(sizeof(PackClassRecord) == 64, "pack class record must keep its on-disk size");

std::uint32_t packHeaderBytes(std::size_t numClasses);

// 64-bit FNV-1a. The records' checksum is the FNV-1a of the per-record hashes (image hash, then
// label hash, for each record in order), so a writer can fill records in any order.
std::uint64_t fnv1a64(const void* data, std::size_t size, std::uint64_t seed = 0xcbf29ce484222325ULL);

// The checksum stored in a version 2 header: the FNV-1a of the whole header block (header record,
// class table, padding; its checksum field read as zero), seeded with the records' checksum. A
// flipped byte anywhere in the file changes it.
std::uint64_t packChecksum(const std::uint8_t* headerBlock, std::size_t headerBytes, std::uint64_t recordsChecksum);

}  // namespace segstudio::pack
