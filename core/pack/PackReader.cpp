#include "PackReader.h"

#include "PackError.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace segstudio::pack {

PackReader::PackReader(std::string path, bool verifyChecksum) : m_path(std::move(path))
{
    mapFile();
    try {
        readHeader();
        if (verifyChecksum && computeChecksum() != m_storedChecksum)
            throw PackError(m_path, "checksum mismatch: the pack is corrupt; pack the dataset again");
    } catch (...) {
        ::munmap(const_cast<std::uint8_t*>(m_base), m_fileSize);
        throw;
    }
}

PackReader::~PackReader()
{
    if (m_base)
        ::munmap(const_cast<std::uint8_t*>(m_base), m_fileSize);
}

void PackReader::mapFile()
{
    const int fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw PackError(m_path, std::string("cannot open: ") + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        ::close(fd);
        throw PackError(m_path, std::string("cannot stat: ") + std::strerror(errno));
    }
    m_fileSize = static_cast<std::size_t>(info.st_size);
    if (m_fileSize < sizeof(PackHeaderRecord)) {
        ::close(fd);
        throw PackError(m_path, "too small to be a pack (" + std::to_string(m_fileSize) + " bytes)");
    }
    void* mapped = ::mmap(nullptr, m_fileSize, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (mapped == MAP_FAILED)
        throw PackError(m_path, std::string("cannot map: ") + std::strerror(errno));
    m_base = static_cast<const std::uint8_t*>(mapped);
}

void PackReader::readHeader()
{
    PackHeaderRecord header{};
    std::memcpy(&header, m_base, sizeof(header));
    if (std::memcmp(header.magic, kPackMagic, sizeof(kPackMagic)) != 0)
        throw PackError(m_path, "not a SegStudio pack (bad magic)");
    if (header.version < kOldestPackVersion || header.version > kPackVersion)
        throw PackError(m_path, "pack format version " + std::to_string(header.version) + " is not supported (this build reads versions "
                                    + std::to_string(kOldestPackVersion) + " to " + std::to_string(kPackVersion) + ")");
    if (header.numClasses == 0 || header.numClasses > kMaxClasses)
        throw PackError(m_path,
                        "bad header: class count " + std::to_string(header.numClasses) + " (a pack has 1 to "
                            + std::to_string(kMaxClasses) + ")");
    // Either field may be the flipped one: the message gives both, not only the class count.
    if (header.headerBytes != packHeaderBytes(header.numClasses))
        throw PackError(m_path,
                        "bad header: its header size field says " + std::to_string(header.headerBytes)
                            + " bytes, but its class count " + std::to_string(header.numClasses)
                            + " implies a header of " + std::to_string(packHeaderBytes(header.numClasses))
                            + " bytes: one of the two is corrupt");
    if (header.headerBytes > m_fileSize)
        throw PackError(m_path, "truncated: the header alone promises " + std::to_string(header.headerBytes) + " bytes, file has "
                                    + std::to_string(m_fileSize));
    if (header.height == 0 || header.width == 0 || header.channels == 0)
        throw PackError(m_path, "bad header: zero image size");
    checkSizes(header);

    m_version = header.version;
    m_headerBytes = header.headerBytes;
    m_spec.height = header.height;
    m_spec.width = header.width;
    m_spec.channels = header.channels;
    m_count = header.count;
    m_storedChecksum = header.checksum;
    for (std::uint32_t c = 0; c < header.numClasses; ++c) {
        PackClassRecord record{};
        std::memcpy(&record, m_base + sizeof(header) + c * sizeof(record), sizeof(record));
        record.name[kClassNameBytes - 1] = '\0';
        m_spec.classes.push_back({record.name, record.pixelCount, record.imagePixelCount});
    }
    m_images = m_base + header.headerBytes;
    m_labels = m_images + m_count * m_spec.imageBytes();
}

void PackReader::checkSizes(const PackHeaderRecord& header) const
{
    // Every size is checked against the file's length by division before anything is multiplied
    // or allocated: a flipped bit in the count or a dimension must neither wrap around to the
    // file's length nor ask for terabytes.
    const std::uint64_t payload = m_fileSize - header.headerBytes;
    const std::uint64_t pixels = std::uint64_t(header.height) * header.width;  // < 2^64: two 32-bit factors
    const bool imageFits = pixels <= payload && header.channels <= payload / pixels;
    const std::uint64_t recordBytes = imageFits ? pixels * header.channels + pixels : 0;
    if (!imageFits || header.count > payload / recordBytes || header.count * recordBytes != payload)
        throw PackError(m_path, "truncated or padded: header promises " + std::to_string(header.count) + " records of "
                                    + std::to_string(header.height) + "x" + std::to_string(header.width) + "x"
                                    + std::to_string(header.channels) + ", file has " + std::to_string(m_fileSize) + " bytes");
}

const std::uint8_t* PackReader::image(std::size_t index) const
{
    return m_images + index * m_spec.imageBytes();
}

const std::uint8_t* PackReader::label(std::size_t index) const
{
    return m_labels + index * m_spec.labelBytes();
}

std::uint64_t PackReader::computeChecksum() const
{
    std::vector<std::uint64_t> hashes(2 * m_count);
    for (std::size_t i = 0; i < m_count; ++i) {
        hashes[2 * i] = fnv1a64(image(i), m_spec.imageBytes());
        hashes[2 * i + 1] = fnv1a64(label(i), m_spec.labelBytes());
    }
    const std::uint64_t records = fnv1a64(hashes.data(), hashes.size() * sizeof(std::uint64_t));
    return m_version >= 2 ? packChecksum(m_base, m_headerBytes, records) : records;  // version 1 covered the records only
}

}  // namespace segstudio::pack
