#pragma once

namespace segstudio::engine {
inline namespace runtime {

// A process-wide "please stop" request, set from a signal handler or another thread and read by
// the trainer between iterations, which then writes a checkpoint and returns.
// Guarantees: requestStop() is async-signal-safe (a lock-free atomic store).
void requestStop();
bool stopRequested();
void clearStopRequest();
// "Stop after this epoch": the trainer finishes the epoch (and its validation), writes a
// checkpoint and returns as stopped. Async-signal-safe as requestStop().
void requestStopAfterEpoch();
bool stopAfterEpochRequested();
// Routes SIGINT and SIGTERM to requestStop(), SIGUSR1 to requestStopAfterEpoch(), and ignores
// SIGPIPE. Every later SIGINT/SIGTERM is a stop request again (never the default action), so a
// repeated stop cannot interrupt the checkpoint it asked for.
void installStopSignalHandlers();
// While on, a stop request ends the process at once with exit code 130 (run::kExitStopped),
// from the signal handler itself (_exit, async-signal-safe): for a wait that has nothing to save
// and that LibTorch cannot interrupt, such as the rendezvous of a data-parallel world, which
// would otherwise hold a Stop for its whole timeout (issue 46.9). Turning it on after a stop was
// requested exits as well.
void exitOnStop(bool on);

}  // namespace runtime
}  // namespace segstudio::engine
