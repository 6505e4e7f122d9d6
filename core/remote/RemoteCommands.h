#pragma once

#include "RemoteRunRecord.h"
#include "RemoteTarget.h"

#include <string>
#include <vector>

namespace segstudio::remote {

// The commands that train a run elsewhere, as argument lists for ssh and rsync and as command
// lines for the far side's POSIX shell (issue 64.2). Nothing home-made: ssh, rsync, nohup, kill,
// sbatch, squeue, scancel. Nothing is run here.
// Guarantees: every word the far side's shell sees is quoted (a run named "a b'c" stays one
// word); ssh never prompts (BatchMode: keys from the agent and ~/.ssh/config) and notices a dead
// link in about 15 s (ServerAlive); the packs go only when they changed (rsync --checksum); the
// mirror never deletes or rewrites a local file it did not bring, updates the logs in place
// (the plots' reader sees appended lines, or a file cut short by a resume there, never a replaced
// file) and renames every other file into
// place whole (a checkpoint is never read half-copied).
class RemoteCommands {
public:
    using Command = std::vector<std::string>;  // the program first

    static std::string quote(const std::string& word);  // for a POSIX shell
    static std::string quoted(const std::vector<std::string>& words);  // each quoted, joined by spaces

    // The run folder there for a run named runName.
    static std::string remoteRunDir(const RemoteTarget& target, const std::string& runName);

    static Command ssh(const RemoteTarget& target, const std::string& remoteCommand);
    // The run folder made there (with the folder of runs).
    static std::string makeRunDir(const std::string& remoteRunDir);
    // The local files (the packs) into the run folder there; only what changed is sent.
    static Command send(const RemoteTarget& target, const std::vector<std::string>& localFiles, const std::string& remoteRunDir);
    // The far side's run folder into the local one: the logs, then the other files.
    static Command mirrorLogs(const RemoteRunRecord& record, const std::string& localRunDir);
    static Command mirrorFiles(const RemoteRunRecord& record, const std::string& localRunDir);

    // SLURM: the job script, shown to the user before it is submitted.
    static std::string jobScript(const RemoteTarget& target, const std::string& remoteRunDir,
                                 const std::vector<std::string>& trainArguments);
    // Starts the trainer there and prints its pid (SSH: nohup, its output beside the run folder)
    // or its job id (SLURM: the job script, given on standard input, saved beside the run folder
    // and submitted with sbatch).
    static std::string start(const RemoteTarget& target, const std::string& remoteRunDir,
                             const std::vector<std::string>& trainArguments);
    // SIGTERM to the trainer (it checkpoints and exits), or scancel (SIGTERM to every rank).
    static std::string stop(const RemoteRunRecord& record);
    // SIGUSR1: the epoch ends first.
    static std::string stopAfterEpoch(const RemoteRunRecord& record);
    // Prints "running" while the trainer runs (or its job waits or runs), else "ended".
    static std::string status(const RemoteRunRecord& record);

private:
    static Command sshWithOptions(const RemoteTarget& target);  // ssh and its options, no destination
    static std::string rsyncShell(const RemoteTarget& target);
    static std::string remotePath(const RemoteTarget& target, const std::string& path);
};

}  // namespace segstudio::remote
