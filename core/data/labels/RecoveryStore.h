#pragma once

#include "ClassSchema.h"

#include <opencv2/core.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace labels {

// Crash recovery for unsaved label maps: the editor writes its unsaved map here on a timer, and
// after a crash the next session finds it and offers the work back. Files live in
// <project folder>/.segstudio-recovery/, one label-map PNG plus one JSON note per image, keyed by
// the image's project-relative path.
// Requirements: one writer per project (ProjectLock); paths are project-relative image paths.
// Guarantees: every write is atomic (a crash mid-write leaves the previous recovery file);
// discard() after a clean save removes both files; a note without its map, or a map of the wrong
// size, is reported by restore() as DataError naming the file. A map whose note cannot be read
// (damaged, or never written: a crash between the two writes) is still found by its key, the
// hash of its image's path, so no unsaved work goes unoffered; what matches nothing is named.
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
    struct Scan {
        std::vector<Entry> entries;
        std::vector<std::string> unreadable;  // "FILE: why", for what no entry could be made of
    };
    // Every recovery copy: by its note, or, when the note is unreadable or missing, by matching the
    // map's key against `images` (the project's image paths).
    Scan scan(const std::vector<std::string>& images = {}) const;
    std::vector<Entry> entries() const { return scan().entries; }
    std::optional<Entry> find(const std::string& image) const;  // by note, else by key
    cv::Mat restore(const Entry& entry, const ClassSchema& schema, cv::Size expectedSize = {}) const;
    void discard(const std::string& image) const;

private:
    std::string keyOf(const std::string& image) const;

    std::filesystem::path m_folder;
};

}  // namespace labels
}  // namespace segstudio::data
