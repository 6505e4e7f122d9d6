#pragma once

#include "engine/runtime/WorldInfo.h"

#include <chrono>
#include <memory>
#include <string>

namespace segstudio::engine {
inline namespace distributed { class Communicator; }

inline namespace distributed {
// The torch-free face of data-parallel training, for the CLI.

// Whether this build has the c10d backend ("gloo" or "nccl").
bool processGroupAvailable(const std::string& backend);

// Rendezvous through a c10d TCPStore at world.masterAddr:masterPort (rank 0 serves it) and joins
// the process group. Throws EngineError naming the address on a port in use, an unreachable
// master, a rank launched for another world size, or a world that does not assemble in `timeout`,
// which also bounds every later collective.
std::shared_ptr<Communicator> connectProcessGroup(const WorldInfo& world, const std::string& backend,
                                                  std::chrono::milliseconds timeout);

}  // namespace distributed
}  // namespace segstudio::engine
