#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <string>

namespace segstudio::cli {

// A real-valued option in [low, high], and finite: CLI11 reads "inf" and "nan" as numbers, and its
// PositiveNumber lets inf through (a learning rate of inf trained NaN weights). lowOpen excludes
// low itself ("positive").
class FiniteNumber : public CLI::Validator {
public:
    FiniteNumber(double low, double high, bool lowOpen = false)
    {
        name_ = "FINITE";
        description(std::string("finite number in ") + (lowOpen ? "(" : "[") + CLI::detail::to_string(low) + ", " +
                    CLI::detail::to_string(high) + "]");
        func_ = [low, high, lowOpen](std::string& text) -> std::string {
            double value = 0.0;
            if (!CLI::detail::lexical_cast(text, value))
                return "'" + text + "' is not a number";
            if (!std::isfinite(value))
                return text + " is not a finite number";
            if (value < low || value > high || (lowOpen && value == low))
                return text + " is not in " + (lowOpen ? "(" : "[") + CLI::detail::to_string(low) + ", " +
                       CLI::detail::to_string(high) + "]";
            return {};
        };
    }
};

}  // namespace segstudio::cli
