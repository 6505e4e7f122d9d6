#include "WorldInfo.h"

#include "EngineError.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

extern char** environ;

namespace segstudio::engine {
inline namespace runtime {

namespace {

using Environment = std::map<std::string, std::string>;

const std::string* find(const Environment& environment, const char* name)
{
    const auto it = environment.find(name);
    return it == environment.end() || it->second.empty() ? nullptr : &it->second;
}

int number(const Environment& environment, const char* name, int fallback)
{
    const std::string* text = find(environment, name);
    if (!text)
        return fallback;
    try {
        std::size_t used = 0;
        const int value = std::stoi(*text, &used);
        if (used == text->size())
            return value;
    } catch (const std::exception&) {
    }
    throw EngineError(std::string("launch variable ") + name + "='" + *text + "' is not a number");
}

// The first launcher whose rank variable is set decides; the others' are ignored.
bool fromLauncher(const Environment& environment, WorldInfo& world, const char* launcher, const char* rank,
                  const char* size, const char* localRank)
{
    if (!find(environment, rank))
        return false;
    world.launcher = launcher;
    world.rank = number(environment, rank, 0);
    world.worldSize = number(environment, size, 1);
    world.localRank = localRank ? number(environment, localRank, 0) : 0;
    return true;
}

}  // namespace

WorldInfo worldFromEnvironment(const Environment& environment)
{
    WorldInfo world;
    const bool ours = find(environment, "SEGSTUDIO_LAUNCHER") != nullptr;
    if (fromLauncher(environment, world, ours ? "segstudio" : "torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK")) {
    } else if (fromLauncher(environment, world, "slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID")) {
    } else if (fromLauncher(environment, world, "mpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                            "OMPI_COMM_WORLD_LOCAL_RANK")) {
    } else {
        fromLauncher(environment, world, "mpi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID");
    }
    if (const std::string* addr = find(environment, "MASTER_ADDR"))
        world.masterAddr = *addr;
    else if (const std::string* nodes = find(environment, "SLURM_JOB_NODELIST"))
        world.masterAddr = firstHostOfNodeList(*nodes);  // not the launch node: that may be a login node
    else if (const std::string* nodes = find(environment, "SLURM_NODELIST"))
        world.masterAddr = firstHostOfNodeList(*nodes);
    if (const std::string* agent = find(environment, "TORCHELASTIC_USE_AGENT_STORE"))
        world.agentStore = *agent == "True" || *agent == "true" || *agent == "1";
    world.agentStore = world.agentStore || (ours && find(environment, "SEGSTUDIO_LAUNCHER_STORE"));
    for (const char* name : {"SEGSTUDIO_JOB_ID", "TORCHELASTIC_RUN_ID", "SLURM_JOB_ID"})
        if (const std::string* id = find(environment, name); id && world.jobId.empty())
            world.jobId = *id;
    world.restartCount = number(environment, "TORCHELASTIC_RESTART_COUNT", 0);
    world.forceGroup = world.launcher == "segstudio" && find(environment, "SEGSTUDIO_FORCE_GROUP") != nullptr;
    world.masterPort = number(environment, "MASTER_PORT", world.masterPort);
    if (world.worldSize < 1)
        throw EngineError("launch variables: the world size " + std::to_string(world.worldSize) + " must be at least 1");
    if (world.rank < 0 || world.rank >= world.worldSize)
        throw EngineError("launch variables: rank " + std::to_string(world.rank) + " is outside the world of " +
                          std::to_string(world.worldSize));
    if (world.localRank < 0)
        throw EngineError("launch variables: the local rank must not be negative");
    if (world.masterPort < 1 || world.masterPort > 65535)
        throw EngineError("launch variables: MASTER_PORT " + std::to_string(world.masterPort) + " is not a port");
    return world;
}

WorldInfo worldFromEnvironment()
{
    Environment environment;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string text = *entry;
        const auto equals = text.find('=');
        if (equals != std::string::npos)
            environment[text.substr(0, equals)] = text.substr(equals + 1);
    }
    return worldFromEnvironment(environment);
}

std::string firstHostOfNodeList(const std::string& nodeList)
{
    // Hosts are separated by commas outside brackets; a bracket holds indices or ranges.
    const auto end = nodeList.find_first_of(",[");
    const std::string prefix = nodeList.substr(0, end);
    if (end == std::string::npos || nodeList[end] == ',')
        return prefix;
    const auto close = nodeList.find(']', end);
    const std::string inside = nodeList.substr(end + 1, close == std::string::npos ? std::string::npos : close - end - 1);
    const std::string first = inside.substr(0, inside.find_first_of(",-"));
    std::string suffix;
    if (close != std::string::npos) {
        const auto next = nodeList.find(',', close);
        suffix = nodeList.substr(close + 1, next == std::string::npos ? std::string::npos : next - close - 1);
    }
    return prefix + first + suffix;
}

int freeTcpPort(const std::string& address)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in where{};
    where.sin_family = AF_INET;
    where.sin_port = 0;
    ::inet_pton(AF_INET, address == "localhost" ? "127.0.0.1" : address.c_str(), &where.sin_addr);
    socklen_t size = sizeof where;
    int port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&where), sizeof where) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&where), &size) == 0)
        port = ntohs(where.sin_port);
    if (fd >= 0)
        ::close(fd);
    return port > 0 ? port : 29500;
}

}  // namespace runtime
}  // namespace segstudio::engine
