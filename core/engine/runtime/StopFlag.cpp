#include "StopFlag.h"

#include "run/ExitCode.h"

#include <atomic>
#include <csignal>
#include <unistd.h>

namespace segstudio::engine {
inline namespace runtime {

namespace {

std::atomic<bool> g_stop{false};
std::atomic<bool> g_stopAfterEpoch{false};
std::atomic<bool> g_exitOnStop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the stop flag is set from a signal handler");

extern "C" void onStopSignal(int)
{
    // Idempotent: a second SIGTERM (the GUI's Stop, then closing the window) arrives while the
    // checkpoint is being written; it must not kill the process then. SIGKILL remains for a
    // process that really hangs.
    g_stop.store(true);
    if (g_exitOnStop.load())
        ::_exit(run::kExitStopped);
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

void exitOnStop(bool on)
{
    g_exitOnStop.store(on);
    if (on && g_stop.load())
        ::_exit(run::kExitStopped);
}

void installStopSignalHandlers()
{
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    std::signal(SIGUSR1, onStopAfterEpochSignal);
    // A reader that went away (a killed launcher or GUI) must not kill the trainer at its next
    // progress line, before it could write its checkpoint: the write fails, the run goes on.
    std::signal(SIGPIPE, SIG_IGN);
}

}  // namespace runtime
}  // namespace segstudio::engine
