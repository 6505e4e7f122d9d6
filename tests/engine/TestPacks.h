#pragma once

// Small packs for engine tests, written with pack::PackWriter directly (no core/data, no OpenCV).
#include "pack/PackWriter.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace segstudio::enginetest {

// Each class has a distinct colour; an image is vertical bands of random classes (plus one
// unlabelled band of grey), coloured by class with a little noise, so a tiny model can learn it.
inline std::uint8_t classColour(int cls, int channel)
{
    static const std::uint8_t table[8][3] = {{220, 20, 20},  {20, 200, 40},  {30, 40, 220},  {230, 220, 30},
                                             {200, 40, 210}, {30, 210, 210}, {250, 140, 20}, {90, 60, 30}};
    return table[cls % 8][channel];
}

inline void writeStripePack(const std::string& path, std::size_t count, std::uint32_t height, std::uint32_t width,
                            int classes, std::uint64_t seed = 7)
{
    pack::PackSpec spec;
    spec.height = height;
    spec.width = width;
    for (int c = 0; c < classes; ++c)
        spec.classes.push_back({"class" + std::to_string(c), 0, 0});
    pack::PackWriter writer(path, spec, count);
    std::mt19937_64 random(seed);
    std::vector<std::uint8_t> image(spec.imageBytes()), label(spec.labelBytes());
    for (std::size_t n = 0; n < count; ++n) {
        std::vector<int> columnClass(width);
        std::uint32_t x = 0;
        while (x < width) {
            const std::uint32_t band = 3 + std::uint32_t(random() % 6);
            const int cls = (random() % 8 == 0) ? 255 : int(random() % classes);
            for (std::uint32_t i = x; i < std::min(width, x + band); ++i)
                columnClass[i] = cls;
            x += band;
        }
        std::vector<bool> present(classes, false);
        for (std::uint32_t y = 0; y < height; ++y) {
            for (std::uint32_t i = 0; i < width; ++i) {
                const int cls = columnClass[i];
                label[y * width + i] = std::uint8_t(cls);
                for (int ch = 0; ch < 3; ++ch) {
                    const int base = cls == 255 ? 128 : classColour(cls, ch);
                    image[(y * width + i) * 3 + ch] = std::uint8_t(std::clamp(base + int(random() % 21) - 10, 0, 255));
                }
                if (cls != 255) {
                    spec.classes[cls].pixelCount++;
                    present[cls] = true;
                }
            }
        }
        for (int c = 0; c < classes; ++c)
            if (present[c])
                spec.classes[c].imagePixelCount += std::uint64_t(height) * width;
        writer.write(n, image.data(), label.data());
    }
    writer.setClasses(spec.classes);
    writer.finish();
}

}  // namespace segstudio::enginetest
