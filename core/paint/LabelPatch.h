#pragma once

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace segstudio::paint {

// The before and after of one edit, kept per changed tile and run-length encoded, so an undo entry
// costs a few hundred bytes per touched tile instead of a copy of its bounding box (Krita's tiled
// undo). Built by PatchRecorder.
// Guarantees: applyBefore/applyAfter restore the exact bytes of the tiles that changed and touch
// nothing else; memoryBytes() is what the patch holds.
class LabelPatch {
public:
    struct Tile {
        cv::Rect rect;
        std::vector<std::uint8_t> before;  // runs: (length - 1, value) pairs, row-major
        std::vector<std::uint8_t> after;
    };

    LabelPatch() = default;
    LabelPatch(cv::Size mapSize, std::vector<Tile> tiles);

    bool empty() const { return m_tiles.empty(); }
    cv::Size mapSize() const { return m_mapSize; }
    cv::Rect bounds() const { return m_bounds; }
    std::size_t tileCount() const { return m_tiles.size(); }
    std::size_t memoryBytes() const;

    void applyBefore(cv::Mat& labels) const;
    void applyAfter(cv::Mat& labels) const;
    // Every value v, before and after, becomes table[v] (a class merged or deleted after the edit).
    void remap(const std::array<std::uint8_t, 256>& table);

    static std::vector<std::uint8_t> encode(const cv::Mat& tile);
    static void decode(const std::vector<std::uint8_t>& runs, cv::Mat& tile);

private:
    void apply(cv::Mat& labels, bool after) const;

    cv::Size m_mapSize;
    cv::Rect m_bounds;
    std::vector<Tile> m_tiles;
};

}  // namespace segstudio::paint
