#pragma once

namespace segstudio::engine {

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

}  // namespace segstudio::engine
