// Issue 64: the address a rank advertises to the others is its interface on the way to the master,
// never the loopback address its host name may resolve to (two hosts in network namespaces:
// test_ClusterLaunchers).
#include "engine/distributed/RouteToMaster.h"

#include <QtTest>

#include <ifaddrs.h>
#include <arpa/inet.h>
#include <netinet/in.h>

using namespace segstudio::engine;

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
        ifaddrs* interfaces = nullptr;
        QVERIFY(::getifaddrs(&interfaces) == 0);
        std::string own;
        for (const ifaddrs* entry = interfaces; entry && own.empty(); entry = entry->ifa_next) {
            if (!entry->ifa_addr || entry->ifa_addr->sa_family != AF_INET)
                continue;
            char text[INET_ADDRSTRLEN] = {};
            ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr, text, sizeof text);
            if (std::string(text).rfind("127.", 0) != 0)
                own = text;
        }
        ::freeifaddrs(interfaces);
        if (own.empty())
            QSKIP("this host has no IPv4 address besides loopback");
        QCOMPARE(routeToMaster(own, 29500), own);
    }

    void anUnknownMasterHasNoRoute()
    {
        QCOMPARE(routeToMaster("no-such-host.invalid", 29500), std::string());
    }
};

QTEST_GUILESS_MAIN(TestRouteToMaster)
#include "test_RouteToMaster.moc"
