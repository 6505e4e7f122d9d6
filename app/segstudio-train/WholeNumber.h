#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace segstudio::cli {

// An integer option in [low, high]. CLI::Range answers "Value abc not in range 10 to 10000" for a
// word and for a fraction alike; this says what is wrong: not a number, not a whole number, or
// out of the range. The bounds must fit the option's type (an int option: at most INT_MAX).
class WholeNumber : public CLI::Validator {
public:
    WholeNumber(std::int64_t low, std::int64_t high)
    {
        name_ = "WHOLE";
        const std::string range = "[" + std::to_string(low) + ", " + std::to_string(high) + "]";
        description("whole number in " + range);
        func_ = [low, high, range](std::string& text) -> std::string {
            std::int64_t value = 0;
            if (!CLI::detail::lexical_cast(text, value)) {
                double real = 0.0;
                if (CLI::detail::lexical_cast(text, real))
                    return text + " is not a whole number";
                return "'" + text + "' is not a number";
            }
            if (value < low || value > high)
                return text + " is not in " + range;
            return {};
        };
    }
};

}  // namespace segstudio::cli
