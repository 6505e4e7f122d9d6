#include "RouteToMaster.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace segstudio::engine {
inline namespace distributed {

namespace {

// The local address a datagram socket connected to `peer` is bound to; empty when none.
std::string localEndOf(const addrinfo& peer)
{
    const int fd = ::socket(peer.ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return {};
    std::string address;
    sockaddr_storage local{};
    socklen_t length = sizeof local;
    if (::connect(fd, peer.ai_addr, peer.ai_addrlen) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0) {
        char text[INET6_ADDRSTRLEN] = {};
        const void* raw = local.ss_family == AF_INET6 ? static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(&local)->sin6_addr)
                                                      : static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(&local)->sin_addr);
        if (::inet_ntop(local.ss_family, raw, text, sizeof text))
            address = text;
    }
    ::close(fd);
    return address;
}

}  // namespace

std::string routeToMaster(const std::string& master, int port)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_DGRAM;
    addrinfo* found = nullptr;
    if (::getaddrinfo(master.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
        return {};
    std::string address;
    for (const addrinfo* peer = found; peer && address.empty(); peer = peer->ai_next)
        address = localEndOf(*peer);
    ::freeaddrinfo(found);
    return address;
}

}  // namespace distributed
}  // namespace segstudio::engine
