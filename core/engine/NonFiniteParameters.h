#pragma once

#include "EngineError.h"

namespace segstudio::engine {

// Parameters or buffers that became NaN/inf in a step whose loss was still finite (a learning
// rate far too large): they are never saved. The Trainer ends the run as Diverged (exit code 3),
// as it does for a non-finite loss, and keeps the last good checkpoint.
class NonFiniteParameters : public EngineError {
public:
    using EngineError::EngineError;
};

}  // namespace segstudio::engine
