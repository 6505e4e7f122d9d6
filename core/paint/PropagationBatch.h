#pragma once

#include "LabelPropagator.h"

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

// "Propagate along the sequence" for many frames at once (issue 51), undoable as a
// data::LabelMapTransaction, as PredictionBatch is for Accept Prediction: each unlabelled frame
// asked for that comes right after a frame with labels takes that frame's labels, carried by
// optical flow (LabelPropagator), and the chain goes on: frame k+1 from frame k's carried result,
// so one labelled frame reaches to the end of the unlabelled run after it. Given a prediction
// cache, each frame's cached prediction fills what the flow cannot carry where the model is sure,
// corrected first by the chain's labelled frame (PredictionCorrector, when the cache also has the
// model's scores of that frame: what the model got wrong there it gets wrong along the chain).
// Every new map is computed and kept in the backup folder before any map is replaced; a journal
// says so, so undo and redo write back the exact bytes and a crash is rolled back on the next open.
// A frame counts as labelled when its label map on disk holds a label, or its status says Labelled
// or Reviewed: such a frame is never written, only read as a source.
// Requirements: nobody writes the project's label maps meanwhile (the editor saves its image first
//   and reloads it afterwards). One apply() per object.
// Guarantees: only frames with no label on disk (no map, or a map of unlabelled pixels) and status
//   Unlabelled or In progress are written; a stopped or failed apply() leaves every map as it was.
class PropagationBatch {
public:
    // progress(done, total) returns false to stop; it is asked before each frame and before the
    // maps are replaced, never while they are.
    using Progress = std::function<bool(std::size_t done, std::size_t total)>;

    struct Summary {
        std::size_t asked = 0;  // frames asked for, in a sequence of the project
        std::size_t labelled = 0;  // of those, frames with labels: left as they are
        std::size_t noSource = 0;  // unlabelled, but the frame before has no labels (or there is none)
        std::size_t nothingCarried = 0;  // the flow could vouch for no pixel (the chain stops there)
        std::size_t otherSize = 0;  // not of the size of the frame before (the chain stops there)
        std::int64_t pixels = 0;  // pixels of the written frames
        std::int64_t carried = 0;  // of those, carried by the flow
        std::int64_t filledByModel = 0;  // filled by the model's sure prediction
        std::size_t corrected = 0;  // frames whose prediction the chain's labelled frame corrected
        std::int64_t disagree = 0;  // carried, but a sure prediction says otherwise
        bool stopped = false;  // progress asked to stop: nothing was changed
    };

    explicit PropagationBatch(std::filesystem::path backupFolder);

    // The frames "Propagate along the sequence" fills for a selection: one image selected, every
    // frame of its sequence; several, the selected ones. In project order, without duplicates.
    static std::vector<std::size_t> framesFor(const data::Project& project, const std::vector<std::size_t>& selection);

    // Carries labels into the unlabelled ones of `frames` (project indices, any order), each from
    // the frame right before it in its sequence (data::FrameSequence). cache (optional): the
    // predictions that fill what the flow cannot carry, where at least parameters.fillAbove
    // sure. DataError/FileError (naming the file) on a failure, after which nothing is changed.
    // The step is left unsettled (the journal says "changing"): the caller settles it once the
    // project file agrees with the maps (statuses), or undoes it.
    Summary apply(const data::Project& project, const std::vector<std::size_t>& frames,
                  const data::PredictionCache* cache, const LabelPropagator::Parameters& parameters,
                  const Progress& progress = {});

    const std::vector<std::size_t>& changed() const { return m_changedIndices; }
    const std::filesystem::path& folder() const { return m_folder; }
    // The maps as they were (a map apply() created is removed) / as apply() left them, each where
    // it is still as the step expects: a map labelled since is left alone (Outcome::kept). Every
    // map is tried; Outcome::failed names those that could not be written, and the step stays
    // unfinished until a retry or the next open.
    data::LabelMapTransaction::Outcome undo();
    data::LabelMapTransaction::Outcome redo();
    void settle();  // maps and project file agree
    bool discard() const;  // the backups go (the edit can no longer be undone); false while unfinished
    bool unfinished() const { return m_maps && m_maps->unfinished(); }

private:
    std::filesystem::path m_folder;
    std::optional<data::LabelMapTransaction> m_maps;
    std::vector<std::size_t> m_changedIndices;
};

}  // namespace segstudio::paint
