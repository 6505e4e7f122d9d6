#include "ProjectLock.h"

#include "run/AtomicFile.h"
#include "DataError.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace segstudio::data {

ProjectLock::ProjectLock(std::filesystem::path projectFile) : m_lockFile(projectFile.string() + ".lock") {}

ProjectLock::~ProjectLock() { release(); }

ProjectLock::Owner ProjectLock::currentProcess()
{
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return {static_cast<long long>(getpid()), host};
}

bool ProjectLock::isAlive(const Owner& owner)
{
    if (owner.host != currentProcess().host)
        return true;
    if (owner.pid <= 0)
        return false;
    // EPERM means the process exists but belongs to someone else: still alive.
    return kill(static_cast<pid_t>(owner.pid), 0) == 0 || errno == EPERM;
}

std::optional<ProjectLock::Owner> ProjectLock::owner() const
{
    std::error_code error;
    if (!std::filesystem::exists(m_lockFile, error))
        return std::nullopt;
    try {
        const nlohmann::json json = nlohmann::json::parse(run::readFile(m_lockFile));
        return Owner{json.at("pid").get<long long>(), json.at("host").get<std::string>()};
    } catch (const std::exception&) {
        // An unreadable lock names nobody alive: treat it as stale.
        return Owner{0, currentProcess().host};
    }
}

ProjectLock::Result ProjectLock::acquire()
{
    const Owner self = currentProcess();
    const std::optional<Owner> current = owner();
    if (!current) {
        write();
        return Result::Acquired;
    }
    if (current->pid == self.pid && current->host == self.host) {
        m_held = true;
        return Result::Acquired;
    }
    if (isAlive(*current))
        return Result::HeldByOther;
    write();
    return Result::TookOverStale;
}

void ProjectLock::forceAcquire() { write(); }

void ProjectLock::release()
{
    if (!m_held)
        return;
    m_held = false;
    const Owner self = currentProcess();
    const std::optional<Owner> current = owner();
    // Another instance may have forced its way in since: its lock is not ours to remove.
    if (current && current->pid == self.pid && current->host == self.host) {
        std::error_code error;
        std::filesystem::remove(m_lockFile, error);
    }
}

void ProjectLock::write()
{
    const Owner self = currentProcess();
    run::writeFileAtomically(m_lockFile, nlohmann::json{{"pid", self.pid}, {"host", self.host}}.dump());
    m_held = true;
}

}  // namespace segstudio::data
