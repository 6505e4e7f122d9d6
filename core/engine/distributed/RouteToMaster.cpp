#include "RouteToMaster.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
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


// The first address of this host's interfaces that is not a loopback one (IPv4 first).
std::string firstOwnAddress()
{
    ifaddrs* interfaces = nullptr;
    if (::getifaddrs(&interfaces) != 0)
        return {};
    std::string found;
    for (const int family : {AF_INET, AF_INET6}) {
        for (const ifaddrs* entry = interfaces; entry && found.empty(); entry = entry->ifa_next) {
            if (!entry->ifa_addr || entry->ifa_addr->sa_family != family || (entry->ifa_flags & IFF_LOOPBACK) ||
                !(entry->ifa_flags & IFF_UP))
                continue;
            char text[INET6_ADDRSTRLEN] = {};
            const void* raw = family == AF_INET6
                                  ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(entry->ifa_addr)->sin6_addr)
                                  : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr);
            if (::inet_ntop(family, raw, text, sizeof text) && !(family == AF_INET6 && std::string(text).rfind("fe80", 0) == 0))
                found = text;
        }
    }
    ::freeifaddrs(interfaces);
    return found;
}

bool isLoopback(const std::string& address)
{
    return address.rfind("127.", 0) == 0 || address == "::1";
}

// The route's local end, IPv4 first (every rank of a run in one family).
std::string routeOf(const std::string& master, int port)
{
    std::string address;
    for (const int family : {AF_INET, AF_INET6}) {
        addrinfo hints{};
        hints.ai_family = family;
        hints.ai_socktype = SOCK_DGRAM;
        addrinfo* found = nullptr;
        if (::getaddrinfo(master.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
            continue;
        for (const addrinfo* peer = found; peer && address.empty(); peer = peer->ai_next)
            address = localEndOf(*peer);
        ::freeaddrinfo(found);
        if (!address.empty())
            break;
    }
    return address;
}

}  // namespace

std::string routeToMaster(const std::string& master, int port)
{
    const std::string route = routeOf(master, port);
    // The master named by a host name that resolves to loopback here (this host is the master
    // node, and /etc/hosts maps its name to 127.0.1.1): the other nodes reach this host at an
    // address of an interface, not at loopback. A master given as a loopback address means one
    // machine.
    if (isLoopback(route) && !isLoopback(master) && master != "localhost") {
        const std::string own = firstOwnAddress();
        return own.empty() ? route : own;
    }
    return route;
}

}  // namespace distributed
}  // namespace segstudio::engine
