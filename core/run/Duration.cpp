#include "Duration.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace segstudio::run {

namespace {

std::optional<double> unitSeconds(const std::string& unit)
{
    if (unit == "s" || unit == "sec")
        return 1.0;
    if (unit == "m" || unit == "min")
        return 60.0;
    if (unit == "h")
        return 3600.0;
    return std::nullopt;
}

}  // namespace

std::optional<double> parseDuration(const std::string& text)
{
    double total = 0.0;
    std::size_t at = 0;
    bool any = false;
    while (at < text.size()) {
        const char* start = text.c_str() + at;
        if (!std::isdigit(static_cast<unsigned char>(*start)) && *start != '.')
            return std::nullopt;  // no signs, no spaces: "-5m", " 5m"
        char* end = nullptr;
        const double number = std::strtod(start, &end);
        if (end == start)
            return std::nullopt;
        at += std::size_t(end - start);
        std::string unit;
        while (at < text.size() && std::isalpha(static_cast<unsigned char>(text[at])))
            unit += char(std::tolower(static_cast<unsigned char>(text[at++])));
        const auto seconds = unitSeconds(unit);
        if (!seconds)
            return std::nullopt;
        total += number * *seconds;
        any = true;
    }
    if (!any || !std::isfinite(total) || total <= 0.0)
        return std::nullopt;
    return total;
}

std::string durationText(double seconds)
{
    const long long whole = std::llround(std::max(0.0, seconds));
    if (whole < 120)
        return std::to_string(whole) + " s";
    const long long minutes = (whole + 30) / 60;
    if (minutes < 120)
        return std::to_string(minutes) + " min";
    const long long hours = minutes / 60;
    return std::to_string(hours) + " h" + (minutes % 60 ? " " + std::to_string(minutes % 60) + " min" : std::string());
}

}  // namespace segstudio::run
