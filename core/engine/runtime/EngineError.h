#pragma once

#include <stdexcept>
#include <string>

namespace segstudio::engine {
inline namespace runtime {

// The one error type of the engine: a bad configuration, a checkpoint or pack that cannot be used,
// a diverged run. The message is meant to be shown to the user as it is (it names the file, if any).
class EngineError : public std::runtime_error {
public:
    explicit EngineError(const std::string& message) : std::runtime_error(message) {}
};

// A collective that waited longer than the run's timeout for another rank: that rank is hung,
// stopped or unreachable. segstudio-train exits with its own code for it, so the launcher can
// tell the ranks that timed out from the one they waited for.
class CollectiveTimeout : public EngineError {
public:
    using EngineError::EngineError;
};

}  // namespace runtime
}  // namespace segstudio::engine
