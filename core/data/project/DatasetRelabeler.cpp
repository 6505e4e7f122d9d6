#include "DatasetRelabeler.h"

#include "data/labels/DataError.h"

#include <opencv2/core.hpp>

namespace segstudio::data {
inline namespace project {

DatasetRelabeler::DatasetRelabeler()
{
    for (int v = 0; v < 256; ++v)
        m_table[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(v);
}

void DatasetRelabeler::map(int from, int to)
{
    if (from < 0 || from > 255 || to < 0 || to > 255)
        throw DataError({}, "class ids must be within 0..255, got " + std::to_string(from) + " -> " + std::to_string(to));
    m_table[static_cast<std::size_t>(from)] = static_cast<std::uint8_t>(to);
}

bool DatasetRelabeler::isIdentity() const
{
    for (int v = 0; v < 256; ++v) {
        if (m_table[static_cast<std::size_t>(v)] != v)
            return false;
    }
    return true;
}

std::int64_t DatasetRelabeler::apply(cv::Mat& labels) const
{
    CV_Assert(labels.type() == CV_8UC1);
    std::int64_t changed = 0;
    for (int y = 0; y < labels.rows; ++y) {
        std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        for (int x = 0; x < labels.cols; ++x) {
            const std::uint8_t mapped = m_table[row[x]];
            changed += mapped != row[x];
            row[x] = mapped;
        }
    }
    return changed;
}

}  // namespace project
}  // namespace segstudio::data
