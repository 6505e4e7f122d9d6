#pragma once

namespace segstudio::run {

// segstudio-train's exit codes: whoever launched it (the GUI, a shell, a cluster scheduler) tells
// the outcomes apart by them (docs/ENGINE.md).
enum ExitCode : int {
    kExitOk = 0,
    kExitError = 1,        // bad input or a failure; the last stderr line says which file and why
    kExitDiverged = 3,     // the loss became NaN/inf; the last good checkpoint is kept
    kExitPeerTimeout = 4,  // a data-parallel collective waited too long for another rank
    kExitRunBusy = 5,      // another trainer holds the run folder (RunLock); nothing was changed
    kExitStopped = 130,    // stopped on request (as a shell reports SIGINT); checkpoint written
};

}  // namespace segstudio::run
