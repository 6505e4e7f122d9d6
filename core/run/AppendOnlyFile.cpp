#include "AppendOnlyFile.h"

#include "FileError.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace segstudio::run {

AppendOnlyFile::AppendOnlyFile(std::string path)
    : m_path(std::move(path))
    , m_fd(::open(m_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644))
{
    if (m_fd < 0)
        throw FileError(m_path, std::string("cannot open for appending (") + std::strerror(errno) + ")");
}

AppendOnlyFile::~AppendOnlyFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void AppendOnlyFile::appendLine(const std::string& line)
{
    const std::string bytes = line + "\n";
    const char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t written = ::write(m_fd, data, left);
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0)
            throw FileError(m_path, std::string("cannot write (") + std::strerror(errno) + ")");
        data += written;
        left -= std::size_t(written);
    }
}

}  // namespace segstudio::run
