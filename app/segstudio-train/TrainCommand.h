#pragma once

#include "engine/TrainConfig.h"
#include "engine/Trainer.h"

#include <string>

namespace segstudio::cli {

// Runs a configured Trainer with progress on stdout and SIGINT/SIGTERM routed to a clean stop;
// shared by `train` and `demo`. Returns the process exit code.
int runTraining(engine::Trainer& trainer, bool printSummary = true);

}  // namespace segstudio::cli
