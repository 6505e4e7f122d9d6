#include "RemoteCommands.h"

#include <algorithm>
#include <cctype>

namespace segstudio::remote {

namespace {

// Options every ssh of ours takes: no prompt, a connection attempt bounded, a dead link noticed.
const std::vector<std::string> kSshOptions = {"-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o",
                                               "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"};

std::string beside(const std::string& remoteRunDir, const std::string& extension)
{
    std::string dir = remoteRunDir;
    while (dir.size() > 1 && dir.back() == '/')
        dir.pop_back();
    return dir + extension;
}

}  // namespace

std::string RemoteCommands::quote(const std::string& word)
{
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string("/._-+=:,@%").find(c) != std::string::npos;
    });
    if (plain)
        return word;
    std::string quoted = "'";
    for (const char c : word)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string RemoteCommands::quoted(const std::vector<std::string>& words)
{
    std::string line;
    for (const auto& word : words)
        line += (line.empty() ? "" : " ") + quote(word);
    return line;
}

std::string RemoteCommands::remoteRunDir(const RemoteTarget& target, const std::string& runName)
{
    std::string folder = target.folder;
    if (folder.rfind("~/", 0) == 0)
        folder = folder.substr(2);  // relative to the remote home, as ssh and rsync start there
    while (folder.size() > 1 && folder.back() == '/')
        folder.pop_back();
    return folder.empty() || folder == "~" ? runName : folder + "/" + runName;
}

RemoteCommands::Command RemoteCommands::ssh(const RemoteTarget& target, const std::string& remoteCommand)
{
    Command command{"ssh"};
    command.insert(command.end(), kSshOptions.begin(), kSshOptions.end());
    if (target.port > 0)
        command.insert(command.end(), {"-p", std::to_string(target.port)});
    command.insert(command.end(), target.sshOptions.begin(), target.sshOptions.end());
    command.insert(command.end(), {target.destination(), "--", remoteCommand});
    return command;
}

std::string RemoteCommands::rsyncShell(const RemoteTarget& target)
{
    Command command{"ssh"};
    command.insert(command.end(), kSshOptions.begin(), kSshOptions.end());
    if (target.port > 0)
        command.insert(command.end(), {"-p", std::to_string(target.port)});
    command.insert(command.end(), target.sshOptions.begin(), target.sshOptions.end());
    return quoted(command);  // rsync splits -e's value as a shell would
}

std::string RemoteCommands::remotePath(const RemoteTarget& target, const std::string& path)
{
    return target.destination() + ":" + path;  // --protect-args: the far side's shell never sees it
}

std::string RemoteCommands::makeRunDir(const std::string& remoteRunDir)
{
    return "mkdir -p " + quote(remoteRunDir);
}

RemoteCommands::Command RemoteCommands::send(const RemoteTarget& target, const std::vector<std::string>& localFiles,
                                             const std::string& remoteRunDir)
{
    Command command{"rsync", "--archive", "--checksum", "--protect-args", "-e", rsyncShell(target)};
    command.insert(command.end(), localFiles.begin(), localFiles.end());
    command.push_back(remotePath(target, remoteRunDir + "/"));
    return command;
}

RemoteCommands::Command RemoteCommands::mirrorLogs(const RemoteRunRecord& record, const std::string& localRunDir)
{
    return {"rsync", "--archive", "--append-verify", "--protect-args", "-e", rsyncShell(record.target),
            "--include=/metrics.jsonl", "--include=/log.txt", "--exclude=*",
            remotePath(record.target, record.remoteRunDir + "/"), localRunDir + "/"};
}

RemoteCommands::Command RemoteCommands::mirrorFiles(const RemoteRunRecord& record, const std::string& localRunDir)
{
    // Not the logs (mirrorLogs), the packs (the local ones are the originals), the lock (it names
    // a process there), last.pt (what a resume there reads: large, and rewritten every epoch)
    // or a write in progress (run::writeFileAtomically's PATH.tmp).
    return {"rsync", "--archive", "--protect-args", "-e", rsyncShell(record.target), "--exclude=/metrics.jsonl",
            "--exclude=/log.txt", "--exclude=*.pack", "--exclude=*.pack.*", "--exclude=/trainer.lock",
            "--exclude=/checkpoints/last.pt", "--exclude=*.tmp", remotePath(record.target, record.remoteRunDir + "/"),
            localRunDir + "/"};
}

std::string RemoteCommands::jobScript(const RemoteTarget& target, const std::string& remoteRunDir,
                                      const std::vector<std::string>& trainArguments)
{
    const int ranks = std::max(1, target.gpus);
    std::string name = remoteRunDir.substr(remoteRunDir.find_last_of('/') + 1);
    std::string script = "#!/bin/sh\n#SBATCH --job-name=segstudio-" + name + "\n#SBATCH --output=" +
                         beside(remoteRunDir, ".out") + "\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=" +
                         std::to_string(ranks) + "\n";
    if (target.gpus > 0)
        script += "#SBATCH --gpus-per-node=" + std::to_string(target.gpus) + "\n";
    if (!target.partition.empty())
        script += "#SBATCH --partition=" + target.partition + "\n";
    if (target.timeLimitMinutes > 0)
        script += "#SBATCH --time=" + std::to_string(target.timeLimitMinutes) + "\n";
    std::vector<std::string> trainer{target.trainer};
    trainer.insert(trainer.end(), trainArguments.begin(), trainArguments.end());
    if (target.gpus > 0)
        trainer.insert(trainer.end(), {"--device", "cuda"});  // each rank its GPU: SLURM_LOCALID
    // scancel gives every rank SIGTERM: rank 0 writes the checkpoint before KillWait ends.
    return script + "# one rank per task; the ranks meet at the first node (SLURM_JOB_NODELIST)\nexec srun " +
           quoted(trainer) + "\n";
}

std::string RemoteCommands::start(const RemoteTarget& target, const std::string& remoteRunDir,
                                  const std::vector<std::string>& trainArguments)
{
    if (target.kind == RemoteTarget::Kind::Slurm) {
        const std::string script = quote(beside(remoteRunDir, ".sbatch"));
        return makeRunDir(remoteRunDir) + " && cat > " + script + " && sbatch --parsable " + script;
    }
    std::vector<std::string> trainer{target.trainer};
    trainer.insert(trainer.end(), trainArguments.begin(), trainArguments.end());
    // Not "a && b &": that would background a subshell, and $! would not be the trainer.
    return makeRunDir(remoteRunDir) + " || exit 1; nohup " + quoted(trainer) + " > " +
           quote(beside(remoteRunDir, ".out")) + " 2>&1 < /dev/null & echo $!";
}

std::string RemoteCommands::stop(const RemoteRunRecord& record)
{
    return record.target.kind == RemoteTarget::Kind::Slurm ? "scancel " + quote(record.jobId)
                                                           : "kill -TERM " + std::to_string(record.pid);
}

std::string RemoteCommands::stopAfterEpoch(const RemoteRunRecord& record)
{
    // Only the tasks (the ranks), not the batch shell or srun: scancel without --full.
    return record.target.kind == RemoteTarget::Kind::Slurm ? "scancel --signal=USR1 " + quote(record.jobId)
                                                           : "kill -USR1 " + std::to_string(record.pid);
}

std::string RemoteCommands::status(const RemoteRunRecord& record)
{
    if (record.target.kind == RemoteTarget::Kind::Slurm)
        return "state=$(squeue -h -j " + quote(record.jobId) +
               " -o %T 2>/dev/null); if [ -n \"$state\" ]; then echo running; else echo ended; fi";
    return "if kill -0 " + std::to_string(record.pid) + " 2>/dev/null; then echo running; else echo ended; fi";
}

}  // namespace segstudio::remote
