#pragma once

#include <cstddef>

namespace segstudio::metrics {

// SegStudio's one boundary rule, for the editor's outlines, the superpixel edges and the BF score
// alike: a pixel is on a boundary when one of its 4 neighbours inside the image has another value;
// the image border is no boundary. ids: width*height values, row-major (any integer type).
template <typename Id>
inline bool onBoundary(const Id* ids, int width, int height, int x, int y)
{
    const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
    const Id value = ids[i];
    return (x > 0 && ids[i - 1] != value) || (x + 1 < width && ids[i + 1] != value) ||
           (y > 0 && ids[i - std::size_t(width)] != value) || (y + 1 < height && ids[i + std::size_t(width)] != value);
}

}  // namespace segstudio::metrics
