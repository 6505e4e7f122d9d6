#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace segstudio::data {
inline namespace project {

// One SegStudio edits a project at a time: <project file>.lock is held with flock() for as long as
// this object holds it, and names the pid and host of its holder for the others' messages.
// The kernel is the arbiter, not the file's content: taking the lock is one atomic step (two
// processes racing get exactly one winner), and a crashed holder's lock is released by the kernel
// with its process, so a stale lock file (a crash, or an older SegStudio's lock) is taken over in
// that same atomic step. Works across hosts where the file system supports flock (local, NFSv4).
// Requirements: POSIX.
// Guarantees: acquire() never blocks; the destructor releases the lock and removes its file; a
// folder where no lock can be made (read-only, no permission) answers NotWritable, never throws.
class ProjectLock {
public:
    enum class Result { Acquired, TookOverStale, HeldByOther, NotWritable };

    struct Owner {
        long long pid = 0;
        std::string host;
    };

    explicit ProjectLock(std::filesystem::path projectFile);
    ~ProjectLock();
    ProjectLock(const ProjectLock&) = delete;
    ProjectLock& operator=(const ProjectLock&) = delete;

    const std::filesystem::path& lockFile() const { return m_lockFile; }
    Result acquire();  // HeldByOther and NotWritable leave everything as it was
    void release();    // only ever releases and removes a lock this object holds
    bool held() const { return m_fd >= 0; }
    std::optional<Owner> owner() const;  // who the lock file names now, if it names anybody
    // "process 123 on host", or "a process starting up" while the holder has not named itself.
    std::string holderText() const;
    const std::string& failure() const { return m_failure; }  // why NotWritable

    static Owner currentProcess();

private:
    Result lockOpenFile();
    void writeOwner();

    std::filesystem::path m_lockFile;
    int m_fd = -1;
    std::string m_failure;
};

}  // namespace project
}  // namespace segstudio::data
