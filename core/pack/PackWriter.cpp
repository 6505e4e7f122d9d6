#include "PackWriter.h"

#include "PackError.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace segstudio::pack {

PackWriter::PackWriter(std::string path, PackSpec spec, std::size_t count)
    : m_path(std::move(path)), m_tempPath(m_path + ".partial"), m_spec(std::move(spec)), m_count(count),
      m_recordHashes(2 * count, 0), m_written(count, false)
{
    if (m_spec.height == 0 || m_spec.width == 0 || m_spec.channels == 0)
        throw PackError(m_path, "image size must not be zero");
    if (m_spec.classes.empty() || m_spec.classes.size() > kMaxClasses)
        throw PackError(m_path, "a pack needs between 1 and 255 classes");
    refuseForeignFile();
    claimTempFile();
}

// A pack replaces an earlier pack, never a file of another kind (a typo in -o).
void PackWriter::refuseForeignFile() const
{
    std::FILE* existing = std::fopen(m_path.c_str(), "rb");
    if (!existing)
        return;
    char magic[sizeof(kPackMagic)] = {};
    const bool isPack = std::fread(magic, 1, sizeof(magic), existing) == sizeof(magic) &&
                        std::memcmp(magic, kPackMagic, sizeof(magic)) == 0;
    std::fclose(existing);
    if (!isPack)
        throw PackError(m_path, "exists and is not a pack: a pack never replaces it (choose another output)");
}

// The temp file is the claim on the output: it is locked (flock) for the writer's life before it
// is truncated, so a second pack to the same output is refused instead of writing over the
// first's bytes. A crashed writer's lock goes with its process.
void PackWriter::claimTempFile()
{
    int fd = -1;
    // The lock is on the file opened: if another writer renamed or removed that file between our
    // open and our lock (it finished, or gave up), the lock holds a file that is no longer the
    // temp file (a finished pack, under its final name): let go and open the name again.
    for (int attempt = 0; fd < 0; ++attempt) {
        fd = ::open(m_tempPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            throw PackError(m_tempPath, std::string("cannot create: ") + std::strerror(errno));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
            ::close(fd);
            throw PackError(m_path, "another pack is being written to it (" + m_tempPath + " is locked); wait for it to finish");
        }
        struct stat opened {}, named {};
        if (::fstat(fd, &opened) == 0 && ::stat(m_tempPath.c_str(), &named) == 0 && opened.st_ino == named.st_ino &&
            opened.st_dev == named.st_dev)
            break;
        ::close(fd);
        fd = -1;
        if (attempt == 100)
            throw PackError(m_tempPath, "keeps being replaced by another writer");
    }
    if (::ftruncate(fd, 0) != 0 || !(m_file = ::fdopen(fd, "w+b"))) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        throw PackError(m_tempPath, "cannot create: " + reason);
    }
    m_ownsTempFile = true;
}

PackWriter::~PackWriter()
{
    if (!m_finished)
        abandon();
}

void PackWriter::abandon()
{
    // Removed while still locked: a writer waiting for the name never locks a file about to go.
    if (m_ownsTempFile)
        std::remove(m_tempPath.c_str());
    if (m_file) {
        std::fclose(m_file);
        m_file = nullptr;
    }
}

void PackWriter::writeAt(std::uint64_t offset, const void* data, std::size_t size)
{
    if (std::fseek(m_file, static_cast<long>(offset), SEEK_SET) != 0 || std::fwrite(data, 1, size, m_file) != size)
        throw PackError(m_tempPath, std::string("write failed: ") + std::strerror(errno));
}

void PackWriter::write(std::size_t index, const std::uint8_t* image, const std::uint8_t* label)
{
    if (index >= m_count)
        throw PackError(m_path, "record " + std::to_string(index) + " is past the declared count");
    const std::uint64_t header = packHeaderBytes(m_spec.classes.size());
    const std::size_t imageBytes = m_spec.imageBytes();
    const std::size_t labelBytes = m_spec.labelBytes();
    writeAt(header + index * imageBytes, image, imageBytes);
    writeAt(header + m_count * imageBytes + index * labelBytes, label, labelBytes);
    m_recordHashes[2 * index] = fnv1a64(image, imageBytes);
    m_recordHashes[2 * index + 1] = fnv1a64(label, labelBytes);
    m_written[index] = true;
}

void PackWriter::setClasses(std::vector<PackClass> classes)
{
    if (classes.size() != m_spec.classes.size())
        throw PackError(m_path, "the class count cannot change while packing");
    m_spec.classes = std::move(classes);
}

void PackWriter::writeHeader(std::uint64_t recordsChecksum)
{
    std::vector<char> block(packHeaderBytes(m_spec.classes.size()), 0);
    PackHeaderRecord header{};
    std::memcpy(header.magic, kPackMagic, sizeof(kPackMagic));
    header.version = kPackVersion;
    header.headerBytes = static_cast<std::uint32_t>(block.size());
    header.height = m_spec.height;
    header.width = m_spec.width;
    header.channels = m_spec.channels;
    header.numClasses = static_cast<std::uint32_t>(m_spec.classes.size());
    header.count = m_count;
    header.checksum = 0;  // filled in below, over the finished block
    std::memcpy(block.data(), &header, sizeof(header));
    for (std::size_t c = 0; c < m_spec.classes.size(); ++c) {
        PackClassRecord record{};
        const std::string& name = m_spec.classes[c].name;
        std::memcpy(record.name, name.data(), std::min(name.size(), kClassNameBytes - 1));
        record.pixelCount = m_spec.classes[c].pixelCount;
        record.imagePixelCount = m_spec.classes[c].imagePixelCount;
        std::memcpy(block.data() + sizeof(header) + c * sizeof(record), &record, sizeof(record));
    }
    header.checksum = packChecksum(reinterpret_cast<const std::uint8_t*>(block.data()), block.size(), recordsChecksum);
    std::memcpy(block.data(), &header, sizeof(header));
    writeAt(0, block.data(), block.size());
}

void PackWriter::finish()
{
    const auto missing = std::find(m_written.begin(), m_written.end(), false);
    if (missing != m_written.end())
        throw PackError(m_path, "record " + std::to_string(missing - m_written.begin()) + " was never written");
    writeHeader(fnv1a64(m_recordHashes.data(), m_recordHashes.size() * sizeof(std::uint64_t)));
    const bool flushed = std::fflush(m_file) == 0 && ::fsync(fileno(m_file)) == 0;
    if (!flushed)
        throw PackError(m_tempPath, std::string("could not be flushed to disk: ") + std::strerror(errno));
    // Renamed while still open and locked: the claim holds until the file has its final name.
    if (std::rename(m_tempPath.c_str(), m_path.c_str()) != 0)
        throw PackError(m_path, std::string("cannot move the finished pack into place: ") + std::strerror(errno));
    m_ownsTempFile = false;  // (the name is the output's now)
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!closed)
        throw PackError(m_path, std::string("could not be flushed to disk: ") + std::strerror(errno));
    m_finished = true;
}

}  // namespace segstudio::pack
