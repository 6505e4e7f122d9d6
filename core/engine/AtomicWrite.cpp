#include "AtomicWrite.h"

#include "EngineError.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace segstudio::engine {

namespace {

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

void syncDirectoryOf(const std::string& path)
{
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& content)
{
    // A fixed temp name (not O_EXCL): a temp file left by a killed process is simply overwritten.
    const std::string temp = path + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw EngineError(path + ": cannot write (" + std::strerror(errno) + ")");
    const bool written = writeAll(fd, content.data(), content.size()) && ::fsync(fd) == 0;
    const int writeErrno = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !closed) {
        const int reason = written ? errno : writeErrno;
        std::remove(temp.c_str());
        const bool kept = std::filesystem::exists(path);
        throw EngineError(path + ": cannot write (" + std::strerror(reason) + ")" +
                          (kept ? "; the previous file is kept" : ""));
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        const int reason = errno;
        std::remove(temp.c_str());
        throw EngineError(path + ": cannot replace the file (" + std::strerror(reason) + ")");
    }
    syncDirectoryOf(path);
}

}  // namespace segstudio::engine
