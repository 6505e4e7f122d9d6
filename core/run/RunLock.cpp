#include "RunLock.h"

#include "RunLayout.h"
#include "RunLockedError.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>

namespace segstudio::run {

namespace {

constexpr const char* kInheritedVariable = "SEGSTUDIO_RUN_LOCK_FD";

bool sameFile(int fd, const std::filesystem::path& path)
{
    struct stat opened {}, named {};
    return ::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 && opened.st_ino == named.st_ino &&
           opened.st_dev == named.st_dev;
}

std::string now()
{
    const std::time_t seconds = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&seconds));
    return text;
}

}  // namespace

RunLock::RunLock(const std::filesystem::path& runDir) : m_file(RunLayout(runDir).lockFile())
{
    if (!adoptInherited())
        lockOrThrow();
}

RunLock::~RunLock()
{
    if (m_fd < 0)
        return;
    // The name goes with the lock, so a reader never takes a finished trainer's pid (perhaps
    // reused since) for a live one; an adopted lock leaves its launcher's name to the launcher.
    if (m_named && ::ftruncate(m_fd, 0) != 0) {
    }
    ::close(m_fd);  // releases the lock once no other process shares this open file
}

void RunLock::shareWithChildren()
{
    ::fcntl(m_fd, F_SETFD, ::fcntl(m_fd, F_GETFD) & ~FD_CLOEXEC);
    ::setenv(kInheritedVariable, std::to_string(m_fd).c_str(), 1);
}

bool RunLock::adoptInherited()
{
    // The launcher's open lock file: flock() on the same open file description succeeds (it is
    // the launcher's lock, now ours too), on any other open of the file it would not.
    const char* inherited = std::getenv(kInheritedVariable);
    if (!inherited)
        return false;
    const int fd = std::atoi(inherited);
    if (fd <= 2 || !sameFile(fd, m_file) || ::flock(fd, LOCK_EX | LOCK_NB) != 0)
        return false;
    ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
    m_fd = fd;
    return true;
}

void RunLock::lockOrThrow()
{
    const int fd = ::open(m_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        throw FileError(m_file.string(), std::string("cannot create the run folder's lock file (") + std::strerror(errno) + ")");
    m_fd = fd;
    // A file system that cannot flock (an NFS mount without its lock service: ENOLCK) cannot
    // arbitrate; training there goes on unguarded, as before locks, rather than not at all.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        const std::string who = holder();
        ::close(fd);
        m_fd = -1;
        throw RunLockedError(m_file.string(), "another trainer is using this run folder (" + who +
                                                  "); stop it first, or train into another folder");
    }
    writeHolder();
    m_named = true;
}

void RunLock::writeHolder()
{
    // Best effort: a full disk must not keep the run from starting, it only leaves the name out.
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const std::string text = "pid " + std::to_string(::getpid()) + " on " + host + " since " + now() + "\n";
    if (::ftruncate(m_fd, 0) == 0 && ::pwrite(m_fd, text.data(), text.size(), 0) < 0) {
    }
}

std::string RunLock::holder() const
{
    // The winner of a race writes its name just after taking the lock: give it a moment.
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    do {
        char buffer[512];
        const ssize_t got = ::pread(m_fd, buffer, sizeof buffer - 1, 0);
        text.assign(buffer, std::size_t(std::max<ssize_t>(got, 0)));
        if (!text.empty() && text.back() == '\n')
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (std::chrono::steady_clock::now() < deadline);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    return text.empty() ? std::string("its holder did not name itself") : text;
}

}  // namespace segstudio::run
