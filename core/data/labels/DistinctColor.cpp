#include "DistinctColor.h"

#include <cmath>
#include <limits>

namespace segstudio::data {
inline namespace labels {

namespace {

// HSV (hue in degrees, saturation and value 0..255) to RGB, as QColor::fromHsv does it.
Rgb fromHsv(int hue, int saturation, int value)
{
    const double s = saturation / 255.0, v = value / 255.0;
    const double c = v * s;
    const double h = hue / 60.0;
    const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
    double r = 0, g = 0, b = 0;
    switch (int(h) % 6) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
    }
    const double m = v - c;
    auto byte = [m](double channel) { return std::uint8_t(std::lround((channel + m) * 255)); };
    return {byte(r), byte(g), byte(b)};
}

}  // namespace

Rgb distinctColor(const std::vector<Rgb>& taken)
{
    Rgb best;
    int bestDistance = -1;
    for (int k = 0; k < 64; ++k) {
        const Rgb candidate = fromHsv(int(k * 137.508) % 360, 200 + 55 * (k % 2), 230 - 60 * ((k / 2) % 2));
        int nearest = std::numeric_limits<int>::max();
        for (const Rgb& color : taken) {
            const int dr = candidate.r - color.r, dg = candidate.g - color.g, db = candidate.b - color.b;
            nearest = std::min(nearest, dr * dr + dg * dg + db * db);
        }
        if (nearest > bestDistance) {
            bestDistance = nearest;
            best = candidate;
        }
    }
    return best;
}

}  // namespace labels
}  // namespace segstudio::data
