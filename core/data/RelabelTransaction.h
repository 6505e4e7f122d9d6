#pragma once

#include "ClassSchema.h"
#include "DatasetRelabeler.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace segstudio::data {

class Project;

// Merging or deleting a class across every label map of a project, as a transaction that can be
// undone, redone, and survives a crash. Each map it changes is kept in a backup folder, before and
// after, *before* the map itself is replaced (atomically), and a journal there names the maps and
// the schema before the change. While a step runs the journal says "changing"; a crash then leaves
// every map either old or new, and recoverInterrupted() on the next start puts the old ones back
// and the old schema into the project file, so label maps and schema always agree.
// Each step ends journalled as "changing" until the caller has saved the project file with the
// schema that matches the maps and calls settle(): a crash before that rolls the whole step back.
// Backups are written first and made durable together (one sync), then the maps are replaced, so
// a merge over hundreds of maps costs two syncs, not one per file.
// Requirements: nobody else writes the label maps or the project file meanwhile (the caller holds
//   the project lock and saves the open image first). One step at a time.
// Guarantees: undo writes back the exact bytes; a map edited since the step (its bytes are not what
//   the step left) is left as it is and reported, so an undo never loses a label.
class RelabelTransaction {
public:
    // progress(done, total) returns false to stop after the map in hand.
    using Progress = std::function<bool(std::size_t done, std::size_t total)>;
    static constexpr const char* kJournalName = "relabel-journal.json";

    struct Outcome {
        std::vector<std::size_t> changed;  // project indices whose map was rewritten
        std::vector<std::size_t> kept;     // maps edited since the step, left alone (undo/redo)
        std::int64_t pixels = 0;           // pixels relabelled (apply)
        bool stopped = false;              // progress asked to stop (apply; undo() rolls back)
    };

    // folder: a fresh folder of its own, by convention <project>/.segstudio-undo/<time stamp>.
    explicit RelabelTransaction(std::filesystem::path folder);

    const std::filesystem::path& folder() const { return m_folder; }

    // Relabels every existing map of the project (read with `before`, written with `after`'s
    // palette). A map that cannot be read or written throws DataError naming it; maps already
    // replaced stay recorded, so undo() rolls them back. Stopped by progress before the maps are
    // replaced, nothing on disk changed.
    Outcome apply(const Project& project, const DatasetRelabeler& relabeler, const ClassSchema& before,
                  const ClassSchema& after, const Progress& progress = {});
    // Back to the maps before apply() (then save the schema before); settle() once the project
    // file matches.
    Outcome undo(const Progress& progress = {});
    // apply() again over the project as it is now: maps untouched since give the same bytes, and
    // a map labelled after the undo is relabelled too (it may hold the old id again).
    Outcome redo(const Project& project, const Progress& progress = {});
    void settle() const;
    void discard() const;  // the backups go; the step can no longer be undone

    const ClassSchema& schemaBefore() const { return m_before; }

    // Finishes what a crash interrupted in the project's undo folder: every map a "changing" step
    // left new goes back to its old bytes, the project file gets the schema from before that step,
    // and the folders of steps that had finished (a previous session's undo history) are removed.
    // Returns one line per step rolled back. Call with the project lock held, before loading.
    static std::vector<std::string> recoverInterrupted(const std::filesystem::path& projectFile);
    static std::filesystem::path undoRoot(const std::filesystem::path& projectFile);

private:
    struct Change {
        std::size_t index;
        std::string labelMap;  // relative to the project folder
        std::string name;      // backups: <name>.before.png, <name>.after.png
    };

    void writeJournal(const std::string& state) const;
    std::filesystem::path beforeOf(const Change& change) const;
    std::filesystem::path afterOf(const Change& change) const;
    std::filesystem::path mapOf(const Change& change) const;

    std::filesystem::path m_folder;
    std::filesystem::path m_root;  // the project folder
    ClassSchema m_before;
    ClassSchema m_after;
    DatasetRelabeler m_relabeler;
    std::vector<Change> m_changes;
};

}  // namespace segstudio::data
