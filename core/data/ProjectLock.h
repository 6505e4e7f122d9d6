#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace segstudio::data {

// Warns a second SegStudio that opens the same project: <project file>.lock holds the pid and
// host of the instance editing it. A lock whose pid is dead on this host is stale (a crash) and
// is taken over silently.
// Requirements: POSIX (liveness via kill(pid, 0)); a lock from another host is always treated as
// live, since its pid cannot be checked from here.
// Guarantees: acquire() never blocks; the destructor removes the lock file if this object holds
// it; the file is written atomically, so a reader never sees half a lock.
class ProjectLock {
public:
    enum class Result { Acquired, TookOverStale, HeldByOther };

    struct Owner {
        long long pid = 0;
        std::string host;
    };

    explicit ProjectLock(std::filesystem::path projectFile);
    ~ProjectLock();
    ProjectLock(const ProjectLock&) = delete;
    ProjectLock& operator=(const ProjectLock&) = delete;

    const std::filesystem::path& lockFile() const { return m_lockFile; }
    Result acquire();       // HeldByOther leaves the other's lock alone
    void forceAcquire();    // the user chose to edit anyway
    void release();         // only removes a lock that is ours
    bool held() const { return m_held; }
    std::optional<Owner> owner() const;  // who holds the lock file now, if anybody

    static Owner currentProcess();
    static bool isAlive(const Owner& owner);

private:
    void write();

    std::filesystem::path m_lockFile;
    bool m_held = false;
};

}  // namespace segstudio::data
