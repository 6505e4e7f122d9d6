#pragma once

#include "FileError.h"

namespace segstudio::run {

// Another trainer holds the run folder's lock (RunLock): the message names the lock file, that
// trainer's pid and host, and what to do; segstudio-train exits with kExitRunBusy.
class RunLockedError : public FileError {
public:
    using FileError::FileError;
};

}  // namespace segstudio::run
