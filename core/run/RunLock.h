#pragma once

#include <filesystem>
#include <string>

namespace segstudio::run {

// One trainer per run folder: RUN/trainer.lock is held with flock() for this object's life and
// names its holder (pid, host, start time) for the message of a trainer that finds it taken.
// The kernel is the arbiter: two trainers racing get exactly one winner, and a crashed holder's
// lock goes with its process. The file itself stays (it is never removed, so nobody can lock an
// unlinked copy of it); only the lock on it matters. Its content is cleared on release.
// A data-parallel launcher takes the lock and hands its open file to its workers
// (shareWithChildren()); rank 0's RunLock then adopts that same lock instead of competing with
// its own launcher, and keeps it should the launcher die first.
// Requirements: POSIX; the folder exists.
// Guarantees: never blocks; throws RunLockedError naming the holder when another process holds
//   the lock, FileError when the lock file cannot be made. Where the file system has no flock
//   (ENOLCK on an NFS mount without its lock service) nothing is locked and nothing is refused.
class RunLock {
public:
    explicit RunLock(const std::filesystem::path& runDir);
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

    // Sets the environment variable that lets children adopt this lock after exec; the open file
    // stays open across exec. Call in the launcher before starting its workers.
    void shareWithChildren();

private:
    bool adoptInherited();
    void lockOrThrow();
    void writeHolder();
    std::string holder() const;

    std::filesystem::path m_file;
    int m_fd = -1;
    bool m_named = false;  // this object wrote the holder's name (it did not adopt the lock)
};

}  // namespace segstudio::run
