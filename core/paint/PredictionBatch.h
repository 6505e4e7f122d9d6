#pragma once

#include "PredictionAcceptance.h"
#include "WriteGuard.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

namespace segstudio::data {
class PredictionCache;
class Project;
}  // namespace segstudio::data

namespace segstudio::paint {

// "Accept prediction" for many images at once, undoable. Each label map it changes is kept, before
// and after, in a backup folder first, so undo and redo write back the exact bytes; every write is
// atomic, so a crash in the middle leaves each label map either old or new.
// Requirements: the project's label maps are not written by anyone else meanwhile (the editor
//   saves its image first and reloads it afterwards).
class PredictionBatch {
public:
    explicit PredictionBatch(std::filesystem::path backupFolder);

    // Accepts the cached prediction into the label map of each image (a missing map starts
    // unlabelled); images without a current prediction are skipped. progress(done, total) may
    // return false to stop after the image in hand. Returns the number of changed pixels; FileError
    // (naming the file) on a write that fails, after which undo() restores what was changed.
    std::int64_t apply(const data::Project& project, const data::PredictionCache& cache,
                       const std::vector<std::size_t>& indices, const AcceptOptions& options, const WriteGuard& guard,
                       const std::function<bool(std::size_t, std::size_t)>& progress = {});

    const std::vector<std::size_t>& changed() const { return m_changedIndices; }
    // The label maps as they were (a map apply() created is removed) / as apply() left them. A map
    // edited since (its bytes are neither what this step expects) is left as it is, so no label
    // is ever lost to an undo; those images are returned.
    std::vector<std::size_t> undo() const;
    std::vector<std::size_t> redo() const;
    void discard() const;  // the backups go (the edit can no longer be undone)

private:
    struct Change {
        std::size_t index;
        std::filesystem::path labelMap;
        std::filesystem::path before;  // empty: there was no label map
        std::filesystem::path after;
    };

    std::filesystem::path m_folder;
    std::vector<Change> m_changes;
    std::vector<std::size_t> m_changedIndices;
};

}  // namespace segstudio::paint
