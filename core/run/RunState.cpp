#include "RunState.h"

#include <array>
#include <utility>

namespace segstudio::run {

namespace {

constexpr std::array<std::pair<RunState, const char*>, 6> kNames{{
    {RunState::Starting, "starting"},
    {RunState::Training, "training"},
    {RunState::Validating, "validating"},
    {RunState::Stopped, "stopped"},
    {RunState::Finished, "finished"},
    {RunState::Failed, "failed"},
}};

}  // namespace

const char* toString(RunState state)
{
    for (const auto& [value, name] : kNames)
        if (value == state)
            return name;
    return "unknown";
}

std::optional<RunState> runStateFromString(const std::string& text)
{
    for (const auto& [value, name] : kNames)
        if (text == name)
            return value;
    return std::nullopt;
}

bool isEnded(RunState state)
{
    return state == RunState::Stopped || state == RunState::Finished || state == RunState::Failed;
}

}  // namespace segstudio::run
