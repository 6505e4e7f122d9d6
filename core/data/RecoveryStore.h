#pragma once

#include "ClassSchema.h"

#include <opencv2/core.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {

// Crash recovery for unsaved label maps: the editor writes its unsaved map here on a timer, and
// after a crash the next session finds it and offers the work back. Files live in
// <project folder>/.segstudio-recovery/, one label-map PNG plus one JSON note per image, keyed by
// the image's project-relative path.
// Requirements: one writer per project (ProjectLock); paths are project-relative image paths.
// Guarantees: every write is atomic (a crash mid-write leaves the previous recovery file);
// discard() after a clean save removes both files; a note without its map, or a map of the wrong
// size, is reported by restore() as DataError naming the file.
class RecoveryStore {
public:
    static constexpr const char* kFolderName = ".segstudio-recovery";

    struct Entry {
        std::string image;  // project-relative image path
        std::filesystem::path labelFile;
        std::filesystem::path noteFile;
        long long savedAtMs = 0;  // milliseconds since the epoch
    };

    explicit RecoveryStore(std::filesystem::path projectRoot);

    const std::filesystem::path& folder() const { return m_folder; }
    void store(const std::string& image, const cv::Mat& labels, const ClassSchema& schema) const;
    std::vector<Entry> entries() const;  // unreadable notes are skipped (they cannot be matched)
    std::optional<Entry> find(const std::string& image) const;
    cv::Mat restore(const Entry& entry, const ClassSchema& schema, cv::Size expectedSize = {}) const;
    void discard(const std::string& image) const;

private:
    std::string keyOf(const std::string& image) const;

    std::filesystem::path m_folder;
};

}  // namespace segstudio::data
