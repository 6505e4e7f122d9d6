#pragma once

#include "run/FileError.h"

namespace segstudio::data {
inline namespace labels {

// The one error type of core/data: every message names the file and the problem, so the UI and
// the CLI can show it as it is. It is core/run's FileError, so a failed atomic write and a bad
// label map are caught alike.
using DataError = run::FileError;

}  // namespace labels
}  // namespace segstudio::data
