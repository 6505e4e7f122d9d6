#pragma once

#include <cstdio>
#include <string>

namespace segstudio::engine {
inline namespace runtime {

// printf-style text of up to five numbers, for the trainer's log lines and notes
// ("%.0f s of the %.0f s budget"); at most 255 characters.
inline std::string formatted(const char* pattern, double a, double b = 0, double c = 0, double d = 0, double e = 0)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, pattern, a, b, c, d, e);
    return buffer;
}

}  // namespace runtime
}  // namespace segstudio::engine
