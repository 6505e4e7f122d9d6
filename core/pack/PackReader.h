#pragma once

#include "PackFormat.h"

#include <cstdint>
#include <string>

namespace segstudio::pack {

// Read-only, memory-mapped view of a pack (format versions 1 and 2). The constructor refuses
// (PackError naming the file) a file with a bad magic or version, a size that does not match its
// header (checked without overflow, before anything is allocated), or, when verify is on, a
// checksum mismatch (version 2: anywhere in the file, header and class table included): a corrupt
// pack is caught before any training starts.
// Guarantees: after construction every accessor is const and safe to call from any thread.
class PackReader {
public:
    explicit PackReader(std::string path, bool verifyChecksum = true);
    ~PackReader();
    PackReader(const PackReader&) = delete;
    PackReader& operator=(const PackReader&) = delete;

    const std::string& path() const { return m_path; }
    const PackSpec& spec() const { return m_spec; }
    std::size_t size() const { return m_count; }

    const std::uint8_t* image(std::size_t index) const;
    const std::uint8_t* label(std::size_t index) const;
    // Contiguous blocks, for gathering whole batches.
    const std::uint8_t* imageBlock() const { return m_images; }
    const std::uint8_t* labelBlock() const { return m_labels; }

    std::uint64_t computeChecksum() const;
    std::uint64_t storedChecksum() const { return m_storedChecksum; }  // verified on open

private:
    void mapFile();
    void readHeader();
    void checkSizes(const PackHeaderRecord& header) const;

    std::string m_path;
    PackSpec m_spec;
    std::size_t m_count = 0;
    std::uint32_t m_version = 0;
    std::uint32_t m_headerBytes = 0;
    std::uint64_t m_storedChecksum = 0;
    const std::uint8_t* m_base = nullptr;
    std::size_t m_fileSize = 0;
    const std::uint8_t* m_images = nullptr;
    const std::uint8_t* m_labels = nullptr;
};

}  // namespace segstudio::pack
