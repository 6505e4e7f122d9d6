#include "PatchRecorder.h"

#include <algorithm>

namespace segstudio::paint {

PatchRecorder::PatchRecorder(int tileSize) : m_tileSize(std::max(8, tileSize)) {}

void PatchRecorder::begin(const cv::Mat& labels)
{
    m_originals.clear();
    m_size = labels.size();
    m_active = true;
}

cv::Rect PatchRecorder::tileRect(int tx, int ty) const
{
    return cv::Rect(tx * m_tileSize, ty * m_tileSize, m_tileSize, m_tileSize) & cv::Rect({0, 0}, m_size);
}

void PatchRecorder::touch(const cv::Mat& labels, const cv::Rect& rect)
{
    CV_Assert(m_active && labels.size() == m_size);
    const cv::Rect clipped = rect & cv::Rect({0, 0}, m_size);
    if (clipped.empty())
        return;
    const long long tilesPerRow = (m_size.width + m_tileSize - 1) / m_tileSize;
    for (int ty = clipped.y / m_tileSize; ty <= (clipped.br().y - 1) / m_tileSize; ++ty) {
        for (int tx = clipped.x / m_tileSize; tx <= (clipped.br().x - 1) / m_tileSize; ++tx) {
            const long long key = ty * tilesPerRow + tx;
            if (m_originals.find(key) == m_originals.end())
                m_originals.emplace(key, labels(tileRect(tx, ty)).clone());
        }
    }
}

LabelPatch PatchRecorder::finish(const cv::Mat& labels)
{
    CV_Assert(m_active && labels.size() == m_size);
    const long long tilesPerRow = (m_size.width + m_tileSize - 1) / m_tileSize;
    std::vector<LabelPatch::Tile> tiles;
    for (const auto& [key, original] : m_originals) {
        const cv::Rect rect = tileRect(static_cast<int>(key % tilesPerRow), static_cast<int>(key / tilesPerRow));
        const cv::Mat current = labels(rect);
        if (cv::countNonZero(current != original) == 0)
            continue;
        tiles.push_back({rect, LabelPatch::encode(original), LabelPatch::encode(current)});
    }
    // Deterministic order keeps undo/redo reproducible and the tests simple.
    std::sort(tiles.begin(), tiles.end(), [](const LabelPatch::Tile& a, const LabelPatch::Tile& b) {
        return a.rect.y != b.rect.y ? a.rect.y < b.rect.y : a.rect.x < b.rect.x;
    });
    m_originals.clear();
    m_active = false;
    return LabelPatch(m_size, std::move(tiles));
}

void PatchRecorder::restore(cv::Mat& labels)
{
    if (!m_active)
        return;
    const long long tilesPerRow = (m_size.width + m_tileSize - 1) / m_tileSize;
    for (const auto& [key, original] : m_originals)
        original.copyTo(labels(tileRect(static_cast<int>(key % tilesPerRow), static_cast<int>(key / tilesPerRow))));
    m_originals.clear();
    m_active = false;
}

}  // namespace segstudio::paint
