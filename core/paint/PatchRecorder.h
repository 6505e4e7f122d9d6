#pragma once

#include "LabelPatch.h"

#include <opencv2/core.hpp>

#include <unordered_map>

namespace segstudio::paint {

// Copy-on-write recorder for one edit: before pixels of a tile are copied the first time the edit
// announces it will touch that tile, and finish() keeps only the tiles whose bytes really changed.
// Requirements: call touch(labels, rect) before writing inside rect; the map's size must not
// change between begin() and finish().
// Guarantees: finish() returns a LabelPatch whose applyBefore() restores the map as it was at
// begin(); restore() does the same without building a patch (to cancel an edit).
class PatchRecorder {
public:
    static constexpr int kDefaultTileSize = 64;

    explicit PatchRecorder(int tileSize = kDefaultTileSize);

    void begin(const cv::Mat& labels);
    bool active() const { return m_active; }
    void touch(const cv::Mat& labels, const cv::Rect& rect);
    LabelPatch finish(const cv::Mat& labels);
    void restore(cv::Mat& labels);

private:
    cv::Rect tileRect(int tx, int ty) const;

    int m_tileSize;
    bool m_active = false;
    cv::Size m_size;
    std::unordered_map<long long, cv::Mat> m_originals;  // key: ty * tilesPerRow + tx
};

}  // namespace segstudio::paint
