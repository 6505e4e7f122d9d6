#include "AtomicFile.h"

#include "FileError.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace segstudio::run {

namespace {

std::string systemError() { return std::strerror(errno); }

// A fixed name beside the target (not O_EXCL with a random one): a temp file left by a killed
// process is simply overwritten on the next save instead of piling up, and tests can put a
// full disk in its place (a symlink to /dev/full).
std::filesystem::path tempPathFor(const std::filesystem::path& path)
{
    return path.parent_path() / (path.filename().string() + ".tmp");
}

bool writeAll(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += written;
        size -= std::size_t(written);
    }
    return true;
}

// Makes the rename itself durable, so a crash right after save cannot bring the old file back.
void syncDirectory(const std::filesystem::path& directory)
{
    const int fd = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

void writeFileAtomically(const std::filesystem::path& path, const char* bytes, std::size_t size, Durability durability)
{
    const bool immediate = durability == Durability::Immediate;
    const bool inPlace = durability == Durability::Staged;
    const std::filesystem::path written = inPlace ? path : tempPathFor(path);
    const int fd = ::open(written.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw FileError(path.string(), "cannot write (" + systemError() + ")");
    const bool ok = writeAll(fd, bytes, size) && (!immediate || ::fsync(fd) == 0);
    const std::string writeError = ok ? std::string() : systemError();
    if (::close(fd) != 0 || !ok) {
        const std::string reason = writeError.empty() ? systemError() : writeError;
        std::remove(written.c_str());
        std::error_code error;
        const bool kept = !inPlace && std::filesystem::exists(path, error);
        throw FileError(path.string(), "cannot write (" + reason + ")" + (kept ? "; the previous file is kept" : ""));
    }
    if (inPlace)
        return;
    if (std::rename(written.c_str(), path.c_str()) != 0) {
        const std::string error = systemError();
        std::remove(written.c_str());
        throw FileError(path.string(), "cannot replace the file (" + error + ")");
    }
    if (immediate)
        syncDirectory(path.parent_path());
}

void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes, Durability durability)
{
    writeFileAtomically(path, bytes.data(), bytes.size(), durability);
}

void writeFileAtomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes, Durability durability)
{
    writeFileAtomically(path, reinterpret_cast<const char*>(bytes.data()), bytes.size(), durability);
}

void syncFolder(const std::filesystem::path& folder)
{
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        throw FileError(folder.string(), "cannot open to flush (" + systemError() + ")");
    const bool ok = ::syncfs(fd) == 0;
    const std::string error = ok ? std::string() : systemError();
    ::close(fd);
    if (!ok)
        throw FileError(folder.string(), "cannot flush to disk (" + error + ")");
}

std::string readFile(const std::filesystem::path& path)
{
    std::error_code error;
    if (!std::filesystem::exists(path, error))
        throw FileError(path.string(), "file not found");
    if (std::filesystem::is_directory(path, error))
        throw FileError(path.string(), "is a folder, not a file");
    std::ifstream stream(path, std::ios::binary);
    if (!stream)
        throw FileError(path.string(), "cannot read (" + systemError() + ")");
    std::ostringstream buffer;
    buffer << stream.rdbuf();
    if (stream.bad())
        throw FileError(path.string(), "read failed (" + systemError() + ")");
    return buffer.str();
}

bool holdsOnlyUnfinishedWriteOf(const std::filesystem::path& folder, const std::string& fileName)
{
    const std::filesystem::path temporary = tempPathFor(folder / fileName).filename();
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
        if (entry.path().filename() != temporary)
            return false;
    return !error;
}

}  // namespace segstudio::run
