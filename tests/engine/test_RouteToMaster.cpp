// Issue 64: the address a rank advertises to the others is its interface on the way to the master,
// never the loopback address its host name may resolve to (two hosts in network namespaces:
// test_ClusterLaunchers).
#include "engine/distributed/RouteToMaster.h"

#include <QtTest>

#include <ifaddrs.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <unistd.h>

using namespace segstudio::engine;

namespace {

// This host's first IPv4 address that is not loopback (empty: none).
std::string ownAddress()
{
    ifaddrs* interfaces = nullptr;
    if (::getifaddrs(&interfaces) != 0)
        return {};
    std::string own;
    for (const ifaddrs* entry = interfaces; entry && own.empty(); entry = entry->ifa_next) {
        if (!entry->ifa_addr || entry->ifa_addr->sa_family != AF_INET || !(entry->ifa_flags & IFF_UP))
            continue;
        char text[INET_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr, text, sizeof text);
        if (std::string(text).rfind("127.", 0) != 0)
            own = text;
    }
    ::freeifaddrs(interfaces);
    return own;
}

}  // namespace

class TestRouteToMaster : public QObject {
    Q_OBJECT

private slots:
    void aMasterOnLoopbackIsReachedFromLoopback()
    {
        QCOMPARE(routeToMaster("127.0.0.1", 29500), std::string("127.0.0.1"));
        QCOMPARE(routeToMaster("localhost", 29500).rfind("127.", 0) == 0 || routeToMaster("localhost", 29500) == "::1", true);
    }

    // This host's own non-loopback address, as a master: the route to it starts there.
    void aMasterOnThisHostsInterfaceIsReachedFromThatInterface()
    {
        const std::string own = ownAddress();
        if (own.empty())
            QSKIP("this host has no IPv4 address besides loopback");
        QCOMPARE(routeToMaster(own, 29500), own);
    }

    // This host named by a name that resolves to loopback here (Debian's 127.0.1.1): the other
    // nodes cannot reach that, so the rank gives an address of an interface instead.
    void aMasterNameOnLoopbackGivesAnInterfacesAddress()
    {
        char name[256] = {};
        QVERIFY(::gethostname(name, sizeof name - 1) == 0);
        addrinfo hints{};
        hints.ai_family = AF_INET;
        addrinfo* found = nullptr;
        if (::getaddrinfo(name, nullptr, &hints, &found) != 0)
            QSKIP("this host's name does not resolve here");
        char text[INET_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(found->ai_addr)->sin_addr, text, sizeof text);
        ::freeaddrinfo(found);
        if (std::string(text).rfind("127.", 0) != 0)
            QSKIP("this host's name resolves to an interface's address here, not to loopback");
        const std::string route = routeToMaster(name, 29500);
        QVERIFY2(route.rfind("127.", 0) != 0 || ownAddress().empty(), route.c_str());
        if (!ownAddress().empty())
            QCOMPARE(route, ownAddress());
    }

    void anUnknownMasterHasNoRoute()
    {
        QCOMPARE(routeToMaster("no-such-host.invalid", 29500), std::string());
    }
};

QTEST_GUILESS_MAIN(TestRouteToMaster)
#include "test_RouteToMaster.moc"
