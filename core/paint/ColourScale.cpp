#include "ColourScale.h"

#include <algorithm>

namespace segstudio::paint {

std::uint32_t ColourScale::turbo(double x)
{
    // The published polynomial fit of Turbo (one per channel, degree 5).
    x = std::clamp(x, 0.0, 1.0);
    const double r = 0.13572138 + x * (4.61539260 + x * (-42.66032258 + x * (132.13108234 + x * (-152.94239396 + x * 59.28637943))));
    const double g = 0.09140261 + x * (2.19418839 + x * (4.84296658 + x * (-14.18503333 + x * (4.27729857 + x * 2.82956604))));
    const double b = 0.10667330 + x * (12.64194608 + x * (-60.58204836 + x * (110.36276771 + x * (-89.90310912 + x * 27.34824973))));
    const auto channel = [](double v) { return std::uint32_t(std::clamp(v, 0.0, 1.0) * 255.0 + 0.5); };
    return 0xff000000u | channel(r) << 16 | channel(g) << 8 | channel(b);
}

const std::array<std::uint32_t, 256>& ColourScale::turboTable()
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> colours{};
        for (int v = 0; v < 256; ++v)
            colours[std::size_t(v)] = turbo(v / 255.0);
        return colours;
    }();
    return table;
}

}  // namespace segstudio::paint
