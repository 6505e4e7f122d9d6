#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace segstudio::engine {
inline namespace distributed {

// The rendezvous store of a data-parallel launch, served by segstudio-train's launcher itself (as
// torchrun's agent serves its own): a c10d TCPStore that the workers join as clients
// (SEGSTUDIO_LAUNCHER_STORE, like TORCHELASTIC_USE_AGENT_STORE). Holding the port from the
// moment it is picked leaves no gap in which another program could take it before rank 0 binds
// it, and a taken port is found before any worker starts.
// Guarantees: the constructor throws EngineError "rendezvous at ADDRESS:PORT: port in use ..."
//   when the port is taken, or says why it cannot serve; the store lives as long as this object.
class RendezvousHost {
public:
    // port 0: one the kernel picks (one machine).
    RendezvousHost(const std::string& address, int port, std::chrono::milliseconds timeout);
    ~RendezvousHost();
    RendezvousHost(const RendezvousHost&) = delete;
    RendezvousHost& operator=(const RendezvousHost&) = delete;

    int port() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace distributed
}  // namespace segstudio::engine
