#pragma once

#include <optional>
#include <string>

namespace segstudio::run {

// Durations as people write them for a time budget: "90s", "30m", "2h", "1h30m", "1.5h", "45min".
// Every number needs its unit (is "30" seconds or minutes?). nullopt for anything else, zero or
// negative included.
std::optional<double> parseDuration(const std::string& text);

// "45 s", "30 min", "2 h 5 min": for messages and the run's information panel.
std::string durationText(double seconds);

}  // namespace segstudio::run
