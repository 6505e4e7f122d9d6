#include "RemoteCommands.h"

#include <algorithm>
#include <cctype>

namespace segstudio::remote {

namespace {

// Options every ssh of ours takes: no prompt, a connection attempt bounded, a dead link noticed.
const std::vector<std::string> kSshOptions = {"-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o",
                                               "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"};

// A word for rsync's own -e splitter: it keeps quoted spaces but knows no backslash, so a single
// quote goes inside double quotes.
std::string rsyncWord(const std::string& word)
{
    const std::string quoted = RemoteCommands::quote(word);
    if (word.find('\'') == std::string::npos || word.find('"') != std::string::npos)
        return quoted;
    return "\"" + word + "\"";
}

// The trainer program as the far side's shell runs it: "~/x" is the remote home's x.
std::string program(const std::string& trainer)
{
    return trainer.rfind("~/", 0) == 0 ? "\"$HOME\"/" + RemoteCommands::quote(trainer.substr(2))
                                       : RemoteCommands::quote(trainer);
}

std::string parentOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string(".") : slash == 0 ? std::string("/") : path.substr(0, slash);
}

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

RemoteCommands::Command RemoteCommands::sshWithOptions(const RemoteTarget& target)
{
    Command command{"ssh"};
    command.insert(command.end(), kSshOptions.begin(), kSshOptions.end());
    if (target.port > 0)
        command.insert(command.end(), {"-p", std::to_string(target.port)});
    command.insert(command.end(), target.sshOptions.begin(), target.sshOptions.end());
    return command;
}

RemoteCommands::Command RemoteCommands::ssh(const RemoteTarget& target, const std::string& remoteCommand)
{
    Command command = sshWithOptions(target);
    command.insert(command.end(), {target.destination(), "--", remoteCommand});
    return command;
}

std::string RemoteCommands::rsyncShell(const RemoteTarget& target)
{
    std::string line;
    for (const auto& word : sshWithOptions(target))
        line += (line.empty() ? "" : " ") + rsyncWord(word);
    return line;
}

std::string RemoteCommands::remotePath(const RemoteTarget& target, const std::string& path)
{
    return target.destination() + ":" + path;  // --protect-args: the far side's shell never sees it
}

std::string RemoteCommands::makeRunDir(const std::string& remoteRunDir)
{
    // The folder of runs as needed, the run folder itself new: never another run's of that name.
    return "mkdir -p -- " + quote(parentOf(remoteRunDir)) + " && mkdir -- " + quote(remoteRunDir);
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
    // In place: a log that grew there grows here (rsync writes only the new blocks), one a resume
    // there cut short (its redone iterations dropped) is cut here too, and the plots' reader sees
    // either as it sees the trainer's own writes, never a replaced file.
    return {"rsync", "--archive", "--inplace", "--protect-args", "-e", rsyncShell(record.target),
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
    std::vector<std::string> arguments = trainArguments;
    if (target.gpus > 0)
        arguments.insert(arguments.end(), {"--device", "cuda"});  // each rank its GPU: SLURM_LOCALID
    // scancel gives every rank SIGTERM: rank 0 writes the checkpoint before KillWait ends.
    return script + "# one rank per task; the ranks meet at the first node (SLURM_JOB_NODELIST)\nexec srun " +
           program(target.trainer) + " " + quoted(arguments) + "\n";
}

std::string RemoteCommands::start(const RemoteTarget& target, const std::string& remoteRunDir,
                                  const std::vector<std::string>& trainArguments)
{
    if (target.kind == RemoteTarget::Kind::Slurm) {
        const std::string script = quote(beside(remoteRunDir, ".sbatch"));
        return "mkdir -p -- " + quote(remoteRunDir) + " && cat > " + script + " && sbatch --parsable " + script;
    }
    // Not "a && b &": that would background a subshell, and $! would not be the trainer.
    return "mkdir -p -- " + quote(remoteRunDir) + " || exit 1; nohup " + program(target.trainer) + " " +
           quoted(trainArguments) + " > " + quote(beside(remoteRunDir, ".out")) + " 2>&1 < /dev/null & echo $!";
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
        // A job SLURM no longer lists (or no longer knows: "Invalid job id") has ended; any other
        // error of squeue (the controller busy) is no answer, and the panel asks again.
        return "out=$(squeue -h -j " + quote(record.jobId) +
               " -o %T 2>&1); rc=$?; if [ $rc -eq 0 ] && [ -n \"$out\" ]; then echo running; "
               "elif [ $rc -eq 0 ] || printf '%s' \"$out\" | grep -q 'Invalid job id'; then echo ended; "
               "else printf '%s\\n' \"$out\" >&2; exit 1; fi";
    return "if kill -0 " + std::to_string(record.pid) + " 2>/dev/null; then echo running; else echo ended; fi";
}

}  // namespace segstudio::remote
