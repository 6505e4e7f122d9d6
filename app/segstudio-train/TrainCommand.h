#pragma once

#include "engine/training/TrainConfig.h"
#include "engine/training/Trainer.h"

#include <string>

namespace segstudio::cli {

// Runs a configured Trainer with progress on stdout and SIGINT/SIGTERM routed to a clean stop;
// shared by `train` and `demo`. Returns the process exit code.
int runTraining(engine::Trainer& trainer, bool printSummary = true);

}  // namespace segstudio::cli
