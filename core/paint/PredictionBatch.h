#pragma once

#include "PredictionAcceptance.h"
#include "WriteGuard.h"

#include "data/project/LabelMapTransaction.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace segstudio::data {
inline namespace project { class PredictionCache; }
inline namespace project { class Project; }
}  // namespace segstudio::data

namespace segstudio::paint {

// "Accept prediction" for many images at once, undoable, as a data::LabelMapTransaction: every new
// map is computed and kept (with the old one) in a backup folder before any map is replaced, and
// a journal says so, so undo and redo write back the exact bytes and a crash in the middle is
// rolled back on the next open (all or nothing, never 80 of 200 maps).
// Requirements: the project's label maps are not written by anyone else meanwhile (the editor
//   saves its image first and reloads it afterwards).
class PredictionBatch {
public:
    explicit PredictionBatch(std::filesystem::path backupFolder);

    // Accepts the cached prediction into the label map of each image (a missing map starts
    // unlabelled); images without a current prediction are skipped. progress(done, total) may
    // return false to stop before any map is replaced (nothing changes then). Returns the number
    // of changed pixels; DataError/FileError (naming the file) on a failure, after which the maps
    // already replaced have been put back.
    std::int64_t apply(const data::Project& project, const data::PredictionCache& cache,
                       const std::vector<std::size_t>& indices, const AcceptOptions& options, const WriteGuard& guard,
                       const std::function<bool(std::size_t, std::size_t)>& progress = {});

    const std::vector<std::size_t>& changed() const { return m_changedIndices; }
    // The label maps as they were (a map apply() created is removed) / as apply() left them. A map
    // edited since (its bytes are neither what this step expects) is left as it is, so no label
    // is ever lost to an undo; those images are returned. Every map is tried; if some could not be
    // written, DataError names them after the others are done, and the step stays unfinished.
    std::vector<std::size_t> undo();
    std::vector<std::size_t> redo();
    bool discard() const;  // the backups go (the edit can no longer be undone); false while unfinished

private:
    std::vector<std::size_t> finish(const data::LabelMapTransaction::Outcome& outcome);

    std::filesystem::path m_folder;
    std::optional<data::LabelMapTransaction> m_maps;
    std::vector<std::size_t> m_changedIndices;
};

}  // namespace segstudio::paint
