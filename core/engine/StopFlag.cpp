#include "StopFlag.h"

#include <atomic>
#include <csignal>

namespace segstudio::engine {

namespace {

std::atomic<bool> g_stop{false};
std::atomic<bool> g_stopAfterEpoch{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the stop flag is set from a signal handler");

extern "C" void onStopSignal(int signal)
{
    g_stop.store(true);
    // A second Ctrl+C must still end a process stuck where the flag is not checked.
    std::signal(signal, SIG_DFL);
}

extern "C" void onStopAfterEpochSignal(int)
{
    g_stopAfterEpoch.store(true);
}

}  // namespace

void requestStop()
{
    g_stop.store(true);
}

bool stopRequested()
{
    return g_stop.load();
}

void clearStopRequest()
{
    g_stop.store(false);
    g_stopAfterEpoch.store(false);
}

void requestStopAfterEpoch()
{
    g_stopAfterEpoch.store(true);
}

bool stopAfterEpochRequested()
{
    return g_stopAfterEpoch.load();
}

void installStopSignalHandlers()
{
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    std::signal(SIGUSR1, onStopAfterEpochSignal);
}

}  // namespace segstudio::engine
