#include "RendezvousHost.h"

#include "engine/runtime/EngineError.h"

#if SEGSTUDIO_HAVE_C10D
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace segstudio::engine {
inline namespace distributed {

namespace {

std::string where(const std::string& address, int port) { return "rendezvous at " + address + ":" + std::to_string(port); }

// Asked before c10d tries: its own failure to bind is logged as a raw warning line before the
// exception, and a user needs one clear sentence instead.
bool portTaken(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);  // as c10d binds: TIME_WAIT is no clash
    sockaddr_in any{};
    any.sin_family = AF_INET;
    any.sin_port = htons(std::uint16_t(port));
    any.sin_addr.s_addr = htonl(INADDR_ANY);
    const bool taken = ::bind(fd, reinterpret_cast<sockaddr*>(&any), sizeof any) != 0 && errno == EADDRINUSE;
    ::close(fd);
    return taken;
}

}  // namespace

struct RendezvousHost::Impl {
#if SEGSTUDIO_HAVE_C10D
    c10::intrusive_ptr<c10d::TCPStore> store;
#endif
    int port = 0;
};

RendezvousHost::RendezvousHost(const std::string& address, int port, std::chrono::milliseconds timeout)
    : m_impl(std::make_unique<Impl>())
{
    if (port < 0 || port > 65535)
        throw EngineError(where(address, port) + ": not a port (0-65535)");
    if (port > 0 && portTaken(port))
        throw EngineError(where(address, port) +
                          ": port in use (another program, or another run, listens there); choose another --master port");
#if SEGSTUDIO_HAVE_C10D
    c10d::TCPStoreOptions options;
    options.port = std::uint16_t(port);
    options.isServer = true;
    options.waitWorkers = false;  // the workers' process group waits for them, with its timeout
    options.timeout = timeout;
    try {
        m_impl->store = c10::make_intrusive<c10d::TCPStore>(address, options);
    } catch (const std::exception& error) {
        throw EngineError(where(address, port) + ": cannot serve it (port in use?): " + error.what());
    }
    m_impl->port = m_impl->store->getPort();
#else
    (void)timeout;
    throw EngineError(where(address, port) + ": this build of SegStudio has no c10d");
#endif
}

RendezvousHost::~RendezvousHost() = default;

int RendezvousHost::port() const
{
    return m_impl->port;
}

}  // namespace distributed
}  // namespace segstudio::engine
