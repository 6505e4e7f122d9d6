#pragma once

#include <array>
#include <cstdint>

namespace segstudio::paint {

// The one colour scale of SegStudio's heat maps: the editor's confidence and uncertainty layers,
// their legend, and the evaluation report's confusion matrix. Google's Turbo (Mikhailov, 2019):
// perceptually ordered, readable from dark blue (0) through green to dark red (1), and still
// ordered for colour-blind readers, unlike a rainbow.
class ColourScale {
public:
    // 0xAARRGGBB (Qt's QRgb layout), opaque; values outside 0..1 are clamped.
    static std::uint32_t turbo(double value);
    // turbo(v / 255) for v = 0..255, computed once (the canvas colours a pixel by table look-up).
    static const std::array<std::uint32_t, 256>& turboTable();
};

}  // namespace segstudio::paint
