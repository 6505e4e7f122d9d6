#pragma once

#include "RemoteTarget.h"

#include <filesystem>
#include <optional>
#include <string>

namespace segstudio::remote {

// A local run folder's record of a run that trains elsewhere (remote.json beside the mirrored
// files): where, the run folder there, and what to stop (the trainer's pid over SSH, the SLURM
// job). Written when the trainer has started, so a project reopened later picks the run up again
// (mirroring, Stop) however the window was closed.
// Guarantees: write() is atomic (run::writeFileAtomically); read() is nullopt for a folder without
// a record and throws run::FileError naming the file for a damaged one.
struct RemoteRunRecord {
    RemoteTarget target;
    std::string remoteRunDir;  // as the far side names it (relative to the remote home, or absolute)
    long long pid = 0;         // SSH: the trainer's process there
    std::string jobId;         // SLURM: the job

    static std::filesystem::path fileIn(const std::filesystem::path& localRunDir);
    void write(const std::filesystem::path& localRunDir) const;
    static std::optional<RemoteRunRecord> read(const std::filesystem::path& localRunDir);
    // What to stop, said for the log: "pid 4711 on host" or "SLURM job 42 via host".
    std::string handle() const;
};

}  // namespace segstudio::remote
