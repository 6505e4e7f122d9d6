#include "TerminationSignals.h"

#include <QSocketNotifier>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace segstudio::ui::shell {

namespace {

int g_sockets[2] = {-1, -1};  // [0] written by the handler, [1] read by the notifier
constexpr int kSignals[] = {SIGTERM, SIGHUP, SIGINT};

void onSignal(int signal)
{
    const unsigned char number = static_cast<unsigned char>(signal);
    (void)!::write(g_sockets[0], &number, 1);
}

}  // namespace

TerminationSignals::TerminationSignals(QObject* parent) : QObject(parent)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_sockets) != 0)
        return;  // then the signals keep their default action: no worse than before
    m_notifier = new QSocketNotifier(g_sockets[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &TerminationSignals::readSignal);
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int signal : kSignals)
        ::sigaction(signal, &action, nullptr);
}

TerminationSignals::~TerminationSignals()
{
    for (int signal : kSignals)
        std::signal(signal, SIG_DFL);
    for (int& socket : g_sockets) {
        if (socket >= 0)
            ::close(socket);
        socket = -1;
    }
}

void TerminationSignals::readSignal()
{
    unsigned char number = 0;
    if (::read(g_sockets[1], &number, 1) == 1)
        emit received(number);
}

}  // namespace segstudio::ui::shell
