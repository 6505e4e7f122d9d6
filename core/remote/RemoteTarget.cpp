#include "RemoteTarget.h"

#include <stdexcept>

namespace segstudio::remote {

std::string RemoteTarget::destination() const
{
    return user.empty() ? host : user + "@" + host;
}

std::string RemoteTarget::describe() const
{
    const std::string where = destination() + (port > 0 ? ":" + std::to_string(port) : std::string());
    if (kind == Kind::Ssh)
        return where;
    std::string details;
    if (!partition.empty())
        details += "partition " + partition;
    if (gpus > 0)
        details += (details.empty() ? "" : ", ") + std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
    return "SLURM via " + where + (details.empty() ? std::string() : " (" + details + ")");
}

std::string RemoteTarget::problem() const
{
    if (host.empty())
        return "no host";
    if (host.front() == '-' || host.find_first_of(" \t\n'\":/") != std::string::npos)
        return "not a host name: " + host;
    if (user.find_first_of(" \t\n'\"@") != std::string::npos || (!user.empty() && user.front() == '-'))
        return "not a user name: " + user;
    if (port < 0 || port > 65535)
        return "not a port: " + std::to_string(port);
    if (folder.empty())
        return "no folder for the runs";
    if (folder.front() == '-')
        return "not a folder: " + folder;
    if (folder.find_first_of(" \t\n'\"") != std::string::npos)
        return "the folder of runs must not hold spaces or quotes (a SLURM job script cannot quote them): " + folder;
    if (trainer.empty())
        return "no trainer program";
    if (gpus < 0 || timeLimitMinutes < 0)
        return "GPUs and the time limit cannot be negative";
    return {};
}

nlohmann::json RemoteTarget::toJson() const
{
    nlohmann::json json = {{"kind", kind == Kind::Slurm ? "slurm" : "ssh"},
                           {"host", host},
                           {"user", user},
                           {"port", port},
                           {"folder", folder},
                           {"trainer", trainer},
                           {"sshOptions", sshOptions}};
    if (kind == Kind::Slurm) {
        json["partition"] = partition;
        json["gpus"] = gpus;
        json["timeLimitMinutes"] = timeLimitMinutes;
    }
    return json;
}

RemoteTarget RemoteTarget::fromJson(const nlohmann::json& json)
{
    if (!json.is_object())
        throw std::invalid_argument("the remote target is not an object");
    RemoteTarget target;
    try {
        const std::string kind = json.at("kind").get<std::string>();
        if (kind != "ssh" && kind != "slurm")
            throw std::invalid_argument("kind must be ssh or slurm, not " + kind);
        target.kind = kind == "slurm" ? Kind::Slurm : Kind::Ssh;
        target.host = json.at("host").get<std::string>();
        target.user = json.value("user", std::string());
        target.port = json.value("port", 0);
        target.folder = json.value("folder", target.folder);
        target.trainer = json.value("trainer", target.trainer);
        target.sshOptions = json.value("sshOptions", std::vector<std::string>());
        target.partition = json.value("partition", std::string());
        target.gpus = json.value("gpus", 0);
        target.timeLimitMinutes = json.value("timeLimitMinutes", 0);
    } catch (const nlohmann::json::exception& error) {
        throw std::invalid_argument(std::string("the remote target is damaged: ") + error.what());
    }
    if (const std::string wrong = target.problem(); !wrong.empty())
        throw std::invalid_argument("the remote target: " + wrong);
    return target;
}

}  // namespace segstudio::remote
