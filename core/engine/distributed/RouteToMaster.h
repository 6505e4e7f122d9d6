#pragma once

#include <string>

namespace segstudio::engine {
inline namespace distributed {

// The address of this host's interface on the way to the master (host name or address, and its
// port): what a datagram socket connected there is bound to. Gloo advertises this address to the
// other ranks. Its default, the address the host name resolves to, is a loopback address on many
// machines (Debian's /etc/hosts maps the name to 127.0.1.1), which no other host can reach: a
// rank there would tell the others to connect to 127.0.0.1.
// When the master is a host name that resolves to a loopback address here (this host is the
// master node), an address of this host's first interface that is up and not loopback instead.
// Guarantees: no packet is sent (connecting a datagram socket only chooses the route); an empty
// string when the master cannot be resolved or no route leads there.
std::string routeToMaster(const std::string& master, int port);

}  // namespace distributed
}  // namespace segstudio::engine
