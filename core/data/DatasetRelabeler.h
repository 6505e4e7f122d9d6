#pragma once

#include "Project.h"

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace segstudio::data {

// Applies an id -> id mapping to every label map of a project: merging class a into b (a -> b)
// or deleting a (a -> 255). Used by the classes panel; the schema change itself is the caller's.
// Requirements: no other writer of the label maps meanwhile (the editor saves its open map first).
// Guarantees: each file is rewritten atomically and only if a pixel changes; images without a
// label map are skipped; a file that cannot be read or written is reported in failures (file and
// problem) and the others still proceed, so a rerun finishes the job.
class DatasetRelabeler {
public:
    struct Result {
        std::size_t filesChanged = 0;
        std::int64_t pixelsChanged = 0;
        std::vector<std::string> failures;
    };
    using Progress = std::function<void(std::size_t done, std::size_t total)>;

    DatasetRelabeler();
    void map(int from, int to);  // to = 255 deletes
    bool isIdentity() const;

    // Relabels one map in memory; returns the number of pixels changed.
    std::int64_t apply(cv::Mat& labels) const;
    // Reads with `before`, writes with `after` (the schema after the merge/delete, for the palette).
    Result run(const Project& project, const ClassSchema& before, const ClassSchema& after,
               const Progress& progress = {}) const;

private:
    std::array<std::uint8_t, 256> m_table;
};

}  // namespace segstudio::data
