#pragma once

#include <optional>
#include <string>

namespace segstudio::run {

// Where a run is, as its "state" records in metrics.jsonl say. A run killed without a word (kill
// -9, a power cut) keeps its last state; readers that know the process is gone say so themselves.
enum class RunState { Starting, Training, Validating, Stopped, Finished, Failed };

const char* toString(RunState state);                           // "training", ...
std::optional<RunState> runStateFromString(const std::string& text);
bool isEnded(RunState state);  // stopped, finished or failed: nothing more will be written

}  // namespace segstudio::run
