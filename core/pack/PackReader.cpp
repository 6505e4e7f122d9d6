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
    if (header.version != kPackVersion)
        throw PackError(m_path, "pack format version " + std::to_string(header.version) + " is not supported (this build reads version "
                                    + std::to_string(kPackVersion) + ")");
    if (header.numClasses == 0 || header.numClasses > kMaxClasses || header.headerBytes != packHeaderBytes(header.numClasses))
        throw PackError(m_path, "bad header: class count " + std::to_string(header.numClasses));
    if (header.height == 0 || header.width == 0 || header.channels == 0)
        throw PackError(m_path, "bad header: zero image size");

    m_spec.height = header.height;
    m_spec.width = header.width;
    m_spec.channels = header.channels;
    m_count = header.count;
    m_storedChecksum = header.checksum;
    const std::uint64_t expected = header.headerBytes + header.count * (m_spec.imageBytes() + m_spec.labelBytes());
    if (expected != m_fileSize)
        throw PackError(m_path, "truncated or padded: header promises " + std::to_string(expected) + " bytes, file has "
                                    + std::to_string(m_fileSize));

    for (std::uint32_t c = 0; c < header.numClasses; ++c) {
        PackClassRecord record{};
        std::memcpy(&record, m_base + sizeof(header) + c * sizeof(record), sizeof(record));
        record.name[kClassNameBytes - 1] = '\0';
        m_spec.classes.push_back({record.name, record.pixelCount, record.imagePixelCount});
    }
    m_images = m_base + header.headerBytes;
    m_labels = m_images + m_count * m_spec.imageBytes();
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
    return fnv1a64(hashes.data(), hashes.size() * sizeof(std::uint64_t));
}

}  // namespace segstudio::pack
