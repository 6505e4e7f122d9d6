#pragma once

#include "PackFormat.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace segstudio::pack {

// Writes a pack of a known record count. Records may be written in any order, each exactly once;
// the file appears under its final name only when finish() succeeds (temp file + rename), so a
// failed or interrupted pack never leaves a half-written file behind. The temp file is locked for
// the writer's life, so two writers of one output never mix their bytes: the second is refused;
// an existing output that is not a pack is refused too.
// Requirements: one thread at a time.
class PackWriter {
public:
    PackWriter(std::string path, PackSpec spec, std::size_t count);
    ~PackWriter();
    PackWriter(const PackWriter&) = delete;
    PackWriter& operator=(const PackWriter&) = delete;

    // image: height*width*channels bytes (HWC, RGB); label: height*width class ids (255 = unlabelled).
    void write(std::size_t index, const std::uint8_t* image, const std::uint8_t* label);
    // The class table (names and pixel statistics) may be completed while records are written.
    void setClasses(std::vector<PackClass> classes);
    void finish();

    const PackSpec& spec() const { return m_spec; }

private:
    void writeAt(std::uint64_t offset, const void* data, std::size_t size);
    void writeHeader(std::uint64_t recordsChecksum);
    void abandon();
    void refuseForeignFile() const;
    void claimTempFile();

    std::string m_path;
    std::string m_tempPath;
    PackSpec m_spec;
    std::size_t m_count;
    std::vector<std::uint64_t> m_recordHashes;  // two per record
    std::vector<bool> m_written;
    std::FILE* m_file = nullptr;
    bool m_finished = false;
    bool m_ownsTempFile = false;  // the claim was won: the temp file is this writer's to remove
};

}  // namespace segstudio::pack
