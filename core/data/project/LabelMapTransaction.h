#pragma once

#include "data/labels/ClassSchema.h"

#include <opencv2/core.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace project { class Project; }

inline namespace project {
// Replaces a set of a project's label maps as one transaction that can be undone, redone, and
// survives a crash: the one mechanism under every dataset-wide change of label maps (a class
// merge or delete, Accept Prediction for a selection).
// Each map is kept in a backup folder, before (unless it had none) and after, *before* any map is
// replaced, and a journal there names the maps and the class list before the change. While maps
// are being replaced the journal says "changing"; a crash then leaves every map old or new, and
// recoverInterrupted() on the next open puts the old ones back (removing maps that did not exist)
// and the old class list into the project file: all or nothing.
// The journal stays "changing" until the caller has the project file matching the maps and calls
// settle(); until then discard() keeps the backups, so an undo that failed half way (a map that
// could not be written) is finished by a retry or by the next open, never lost.
// Backups are made durable together (one sync), then the maps are replaced (one more): two syncs
// for hundreds of maps, not one per file.
// Requirements: nobody else writes the label maps or the project file meanwhile (the project lock;
//   the caller saves the open image first). One step at a time.
// Guarantees: undo writes back the exact bytes; a map edited since the step (its bytes are not what
//   the step left) is left as it is and reported, so an undo never loses a label.
class LabelMapTransaction {
public:
    // progress(done, total) returns false to stop (staging only; see commit()).
    using Progress = std::function<bool(std::size_t done, std::size_t total)>;
    static constexpr const char* kJournalName = "relabel-journal.json";

    struct Failure {
        std::size_t index;
        std::string message;  // names the file and the reason
    };
    struct Outcome {
        std::vector<std::size_t> changed;  // project indices whose map was written
        std::vector<std::size_t> kept;     // maps edited since the step, left alone
        std::vector<Failure> failed;       // maps that could not be written back (undo, reapply)
        std::int64_t pixels = 0;           // pixels changed (for the caller's message)
        bool stopped = false;              // progress asked to stop before any map was replaced
    };

    // folder: a fresh folder of its own, by convention <project>/.segstudio-undo/<time stamp>.
    LabelMapTransaction(std::filesystem::path folder, std::filesystem::path projectRoot, ClassSchema schemaBefore);

    const std::filesystem::path& folder() const { return m_folder; }
    const ClassSchema& schemaBefore() const { return m_before; }

    // Starts (or starts over) staging: the folder is made and journalled "preparing".
    void begin();
    // Keeps the map of `index` as it is now and `labels` (written with `palette`) as it will be.
    void stage(std::size_t index, const std::filesystem::path& labelMap, const cv::Mat& labels, const ClassSchema& palette);
    std::size_t stagedCount() const { return m_changes.size(); }
    // Replaces every staged map. A map that cannot be written throws DataError naming it after
    // undoing what was already replaced (rolled back as far as possible; the journal stays
    // "changing" if even that failed). progress is told, never obeyed: replacing is not stopped.
    Outcome commit(const Progress& progress = {});
    // Back to the maps before (exact bytes). Every map is tried; the failed ones are returned and
    // the journal stays "changing" (a retry, or the next open, finishes it).
    Outcome undo(const Progress& progress = {});
    // The staged "after" maps again, where a map is still as it was before.
    Outcome reapply(const Progress& progress = {});
    void settle();         // maps and project file agree: the step may be discarded
    bool discard() const;  // the backups go, unless a change is unfinished ("changing"): false then
    bool unfinished() const { return m_state == "changing"; }

    // Finishes what a crash or a failed undo left in the project's undo folder: every step still
    // "changing" is rolled back to before (maps, and the class list in the project file), and the
    // folders of finished steps (a previous session's undo history) are removed. One line per
    // step rolled back; a step that cannot be rolled back is kept and named. Call with the
    // project lock held, before loading.
    static std::vector<std::string> recoverInterrupted(const std::filesystem::path& projectFile);
    static std::filesystem::path undoRoot(const std::filesystem::path& projectFile);

private:
    struct Change {
        std::size_t index;
        std::string labelMap;  // relative to the project folder
        std::string name;      // backups: <name>.before.png (unless created), <name>.after.png
        bool created;          // the map did not exist before the step
    };

    void writeJournal(const std::string& state);
    std::filesystem::path beforeOf(const Change& change) const;
    std::filesystem::path afterOf(const Change& change) const;
    std::filesystem::path mapOf(const Change& change) const;
    std::string beforeBytes(const Change& change) const;  // empty when the map did not exist
    void restore(const Change& change, const std::string& bytes) const;

    std::filesystem::path m_folder;
    std::filesystem::path m_root;
    ClassSchema m_before;
    std::vector<Change> m_changes;
    std::string m_state;
};

}  // namespace project
}  // namespace segstudio::data
