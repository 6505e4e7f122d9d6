#include "LabelPatch.h"

namespace segstudio::paint {

LabelPatch::LabelPatch(cv::Size mapSize, std::vector<Tile> tiles) : m_mapSize(mapSize), m_tiles(std::move(tiles))
{
    for (const Tile& tile : m_tiles)
        m_bounds |= tile.rect;
}

std::size_t LabelPatch::memoryBytes() const
{
    std::size_t bytes = sizeof(*this) + m_tiles.capacity() * sizeof(Tile);
    for (const Tile& tile : m_tiles)
        bytes += tile.before.capacity() + tile.after.capacity();
    return bytes;
}

void LabelPatch::applyBefore(cv::Mat& labels) const { apply(labels, false); }
void LabelPatch::applyAfter(cv::Mat& labels) const { apply(labels, true); }

void LabelPatch::apply(cv::Mat& labels, bool after) const
{
    CV_Assert(labels.type() == CV_8UC1 && labels.size() == m_mapSize);
    for (const Tile& tile : m_tiles) {
        cv::Mat target = labels(tile.rect);
        decode(after ? tile.after : tile.before, target);
    }
}

void LabelPatch::remap(const std::array<std::uint8_t, 256>& table)
{
    // Runs are (length - 1, value) pairs: only every second byte is a value. Neighbouring runs may
    // now hold the same value; decoding does not care.
    for (Tile& tile : m_tiles) {
        for (auto* runs : {&tile.before, &tile.after}) {
            for (std::size_t i = 1; i < runs->size(); i += 2)
                (*runs)[i] = table[(*runs)[i]];
        }
    }
}

std::vector<std::uint8_t> LabelPatch::encode(const cv::Mat& tile)
{
    std::vector<std::uint8_t> runs;
    int length = 0;
    std::uint8_t value = 0;
    for (int y = 0; y < tile.rows; ++y) {
        const std::uint8_t* row = tile.ptr<std::uint8_t>(y);
        for (int x = 0; x < tile.cols; ++x) {
            if (length > 0 && (row[x] != value || length == 256)) {
                runs.push_back(static_cast<std::uint8_t>(length - 1));
                runs.push_back(value);
                length = 0;
            }
            value = row[x];
            ++length;
        }
    }
    if (length > 0) {
        runs.push_back(static_cast<std::uint8_t>(length - 1));
        runs.push_back(value);
    }
    runs.shrink_to_fit();
    return runs;
}

void LabelPatch::decode(const std::vector<std::uint8_t>& runs, cv::Mat& tile)
{
    int x = 0;
    int y = 0;
    for (std::size_t i = 0; i + 1 < runs.size(); i += 2) {
        int length = runs[i] + 1;
        const std::uint8_t value = runs[i + 1];
        while (length > 0 && y < tile.rows) {
            std::uint8_t* row = tile.ptr<std::uint8_t>(y);
            const int n = std::min(length, tile.cols - x);
            std::fill(row + x, row + x + n, value);
            length -= n;
            x += n;
            if (x == tile.cols) {
                x = 0;
                ++y;
            }
        }
    }
}

}  // namespace segstudio::paint
