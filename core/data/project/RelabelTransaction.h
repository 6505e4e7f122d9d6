#pragma once

#include "data/labels/ClassSchema.h"
#include "DatasetRelabeler.h"
#include "LabelMapTransaction.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace project { class Project; }

inline namespace project {
// Merging or deleting a class across every label map of a project, as a LabelMapTransaction:
// undone, redone, and rolled back after a crash (see there). This class only decides which maps
// change and how (the id table); the journal, backups and recovery are LabelMapTransaction's.
// Requirements: nobody else writes the label maps or the project file meanwhile (the caller holds
//   the project lock and saves the open image first). One step at a time.
class RelabelTransaction {
public:
    // progress(done, total) returns false to stop before any map is replaced.
    using Progress = LabelMapTransaction::Progress;
    using Outcome = LabelMapTransaction::Outcome;
    static constexpr const char* kJournalName = LabelMapTransaction::kJournalName;

    // folder: a fresh folder of its own, by convention <project>/.segstudio-undo/<time stamp>.
    explicit RelabelTransaction(std::filesystem::path folder);

    const std::filesystem::path& folder() const { return m_folder; }

    // Relabels every existing map of the project (read with `before`, written with `after`'s
    // palette). A map that cannot be read or written throws DataError naming it; what was already
    // replaced is rolled back first. Stopped by progress before the maps are replaced, nothing on
    // disk changed.
    Outcome apply(const Project& project, const DatasetRelabeler& relabeler, const ClassSchema& before,
                  const ClassSchema& after, const Progress& progress = {});
    // Back to the maps before apply() (then save the schema before); settle() once the project
    // file matches. Maps that cannot be written back are in Outcome::failed, and the step stays
    // unfinished (its backups kept) until a retry succeeds or the next open finishes it.
    Outcome undo(const Progress& progress = {});
    // apply() again over the project as it is now: maps untouched since give the same bytes, and
    // a map labelled after the undo is relabelled too (it may hold the old id again).
    Outcome redo(const Project& project, const Progress& progress = {});
    void settle();
    bool discard() const;  // false (backups kept) while the step is unfinished
    bool unfinished() const { return m_maps && m_maps->unfinished(); }

    const ClassSchema& schemaBefore() const { return m_before; }

    static std::vector<std::string> recoverInterrupted(const std::filesystem::path& projectFile)
    {
        return LabelMapTransaction::recoverInterrupted(projectFile);
    }
    static std::filesystem::path undoRoot(const std::filesystem::path& projectFile)
    {
        return LabelMapTransaction::undoRoot(projectFile);
    }

private:
    std::filesystem::path m_folder;
    ClassSchema m_before;
    ClassSchema m_after;
    DatasetRelabeler m_relabeler;
    std::optional<LabelMapTransaction> m_maps;
};

}  // namespace project
}  // namespace segstudio::data
