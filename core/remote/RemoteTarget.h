#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace segstudio::remote {

// Where a run trains when not on this computer: a machine reached over SSH, or a SLURM cluster
// whose login node is reached over SSH. Keys and host settings come from the user's ssh agent
// and ~/.ssh/config (ssh itself reads them); nothing here holds a password.
struct RemoteTarget {
    enum class Kind { Ssh, Slurm };
    Kind kind = Kind::Ssh;
    std::string host;
    std::string user;  // empty: ssh's own choice (config, login name)
    int port = 0;      // 0: ssh's own choice (config, 22)
    // Where runs go there: a folder relative to the remote home, or absolute; made when missing.
    std::string folder = "segstudio-runs";
    std::string trainer = "segstudio-train";  // the program there: on its PATH, or a path
    std::vector<std::string> sshOptions;      // more options for ssh (e.g. -F FILE, -i KEY)
    // SLURM only.
    std::string partition;     // empty: the cluster's default
    int gpus = 0;              // GPUs on the one node, one rank each; 0: one rank on CPUs
    int timeLimitMinutes = 0;  // 0: the partition's limit

    // "user@host" or "host": what ssh and rsync are given.
    std::string destination() const;
    // For the runs table and the log: "user@host", "SLURM via user@host (partition gpu, 4 GPUs)".
    std::string describe() const;
    // Empty when usable, else what is wrong (no host, a port out of range, ...).
    std::string problem() const;

    nlohmann::json toJson() const;
    // Throws std::invalid_argument naming the field that is missing or wrong.
    static RemoteTarget fromJson(const nlohmann::json& json);
};

}  // namespace segstudio::remote
