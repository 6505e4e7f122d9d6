#pragma once

#include <cstdint>
#include <string>

namespace segstudio::data {
inline namespace labels {

// Label value that means "no class yet" / void, in memory and on disk.
constexpr std::uint8_t kUnlabelled = 255;

struct Rgb {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;

    bool operator==(const Rgb& other) const { return r == other.r && g == other.g && b == other.b; }
    bool operator!=(const Rgb& other) const { return !(*this == other); }
};

// One class of a schema. id is the value stored in label maps (0..254).
struct LabelClass {
    int id = 0;
    std::string name;
    Rgb color;
    std::string hotkey;  // optional, e.g. "1"; empty = none

    bool operator==(const LabelClass& other) const
    {
        return id == other.id && name == other.name && color == other.color && hotkey == other.hotkey;
    }
};

}  // namespace labels
}  // namespace segstudio::data
