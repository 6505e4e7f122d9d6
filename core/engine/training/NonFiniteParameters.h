#pragma once

#include "engine/runtime/EngineError.h"

namespace segstudio::engine {
inline namespace training {

// A run that diverged: a loss that became NaN/inf (TrainingDiverged itself), or parameters or
// buffers that became NaN/inf in a step whose loss was still finite (a learning rate far too
// large: NonFiniteParameters), which are never saved. The Trainer ends the run as Diverged (exit
// code 3) and keeps the last good checkpoint.
class TrainingDiverged : public EngineError {
public:
    using EngineError::EngineError;
};

class NonFiniteParameters : public TrainingDiverged {
public:
    using TrainingDiverged::TrainingDiverged;
};

}  // namespace training
}  // namespace segstudio::engine
