#include "ProjectLock.h"

#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace segstudio::data {
inline namespace project {

namespace {

// The lock file we hold is still the one at the path: a holder that released (and removed) it
// between our open() and flock() leaves us locking an orphaned inode nobody else will look at.
bool stillLinked(int fd, const std::filesystem::path& path)
{
    struct stat opened {}, named {};
    return ::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 && opened.st_ino == named.st_ino &&
           opened.st_dev == named.st_dev;
}

}  // namespace

ProjectLock::ProjectLock(std::filesystem::path projectFile) : m_lockFile(projectFile.string() + ".lock") {}

ProjectLock::~ProjectLock() { release(); }

ProjectLock::Owner ProjectLock::currentProcess()
{
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return {static_cast<long long>(getpid()), host};
}

std::optional<ProjectLock::Owner> ProjectLock::owner() const
{
    try {
        const std::string text = run::readFile(m_lockFile);
        if (text.empty())
            return std::nullopt;  // being written this instant, or left empty by a crash
        const nlohmann::json json = nlohmann::json::parse(text);
        return Owner{json.at("pid").get<long long>(), json.at("host").get<std::string>()};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

ProjectLock::Result ProjectLock::acquire()
{
    if (held())
        return Result::Acquired;
    // A few rounds at most: each retry means a holder released between our open and our flock.
    for (int attempt = 0; attempt < 8; ++attempt) {
        const std::optional<Owner> before = owner();
        m_fd = ::open(m_lockFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (m_fd < 0) {
            m_failure = std::strerror(errno);
            return Result::NotWritable;
        }
        const Result result = lockOpenFile();
        if (result == Result::HeldByOther || result == Result::NotWritable)
            return result;
        if (!stillLinked(m_fd, m_lockFile)) {
            ::close(m_fd);
            m_fd = -1;
            continue;
        }
        writeOwner();
        const Owner self = currentProcess();
        const bool someoneElse = before && (before->pid != self.pid || before->host != self.host);
        return someoneElse ? Result::TookOverStale : Result::Acquired;
    }
    return Result::HeldByOther;
}

ProjectLock::Result ProjectLock::lockOpenFile()
{
    if (::flock(m_fd, LOCK_EX | LOCK_NB) == 0)
        return Result::Acquired;
    const int error = errno;
    ::close(m_fd);
    m_fd = -1;
    if (error == EWOULDBLOCK)
        return Result::HeldByOther;
    m_failure = std::strerror(error);
    return Result::NotWritable;
}

// In place, not by rename: the lock lives on this inode. Readers that catch it half-written see
// no owner for an instant (owner() is nullopt), never a wrong one.
void ProjectLock::writeOwner()
{
    const Owner self = currentProcess();
    const std::string text = nlohmann::json{{"pid", self.pid}, {"host", self.host}}.dump();
    if (::ftruncate(m_fd, 0) == 0 && ::pwrite(m_fd, text.data(), text.size(), 0) == ssize_t(text.size()))
        return;
    // The lock is ours all the same (flock); only the name in it is missing for others' messages.
}

void ProjectLock::release()
{
    if (!held())
        return;
    // Unlink while still holding it, so a process that opens the path afterwards creates a new
    // file; one that opened the old inode before notices (stillLinked) and retries.
    if (stillLinked(m_fd, m_lockFile))
        ::unlink(m_lockFile.c_str());
    ::close(m_fd);
    m_fd = -1;
}

std::string ProjectLock::holderText() const
{
    const auto holder = owner();
    return holder ? "process " + std::to_string(holder->pid) + " on " + holder->host : std::string("a process starting up");
}

}  // namespace project
}  // namespace segstudio::data
