#pragma once

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>

namespace segstudio::data {
inline namespace project {

// An id -> id mapping of label maps: merging class a into b (a -> b) or deleting a (a -> 255).
// RelabelTransaction applies it to every map of a project (backed up, undoable, crash-safe).
class DatasetRelabeler {
public:
    DatasetRelabeler();
    void map(int from, int to);  // to = 255 deletes
    bool isIdentity() const;

    // Relabels one map in memory; returns the number of pixels changed.
    std::int64_t apply(cv::Mat& labels) const;

private:
    std::array<std::uint8_t, 256> m_table;
};

}  // namespace project
}  // namespace segstudio::data
