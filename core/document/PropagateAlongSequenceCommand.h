#pragma once

#include "data/project/ImageEntry.h"
#include "data/project/PredictionCache.h"
#include "paint/PropagationBatch.h"

#include <QString>
#include <QUndoCommand>

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace segstudio::document {

class ProjectDocument;

// "Propagate along the sequence" (issue 51) on the project's undo stack: the labels of each
// labelled frame carried by optical flow into the unlabelled frames after it, frame after frame
// (paint::PropagationBatch), as one step. The batch runs as a document job (on a worker, with
// progress and Cancel, honoured between frames: a cancelled job changes nothing), and the command
// is pushed when a frame was written (its first redo does nothing). A frame that has labels is
// never written. The written frames go from Unlabelled to In progress, as an image saved with
// labels does (ProjectDocument::noteLabelled): carried labels are for the user to check.
// Undo writes back the exact bytes (a map the step created is removed) and the statuses, leaving
// alone any map labelled since; redo writes the carried maps again. The step is settled (journal)
// only once the project file holds the statuses: a crash before that is rolled back on the next
// open, maps and statuses together. The open image is saved first and reloads what changed
// (labelMapsReplaced). Dropping the command removes its backups.
class PropagateAlongSequenceCommand : public QUndoCommand {
public:
    using StatusChange = std::pair<std::size_t, data::LabelStatus>;  // a written frame and its status before

    // Runs the batch as a document job into `frames` (those that may be written, e.g.
    // PropagationBatch::framesFor a selection); cache: the predictions that fill what the flow
    // cannot carry (nullopt: none), where at least minConfidence (0..255) sure. The outcome is the
    // document's message (or error). The caller has saved the open image and the project file
    // (ProjectDocument::propagateAlongSequence).
    static void start(ProjectDocument* document, std::vector<std::size_t> frames,
                      std::optional<data::PredictionCache> cache, int minConfidence);
    ~PropagateAlongSequenceCommand() override;

    void undo() override;
    void redo() override;

private:
    PropagateAlongSequenceCommand(ProjectDocument* document, std::shared_ptr<paint::PropagationBatch> batch,
                                  std::vector<StatusChange> statuses, const QString& text);
    // The statuses of the frames whose maps were just written (forward) or put back, the project
    // file saved, and then the step settled. False when the project file could not be saved (the
    // document said why): the step stays unsettled.
    static bool commit(ProjectDocument* document, paint::PropagationBatch& batch,
                       const std::vector<StatusChange>& statuses, const std::vector<std::size_t>& written,
                       bool forward);
    static void finishJob(ProjectDocument* document, const std::shared_ptr<paint::PropagationBatch>& batch,
                          const paint::PropagationBatch::Summary& summary, const QString& error);
    void change(bool forward);

    ProjectDocument* m_document;
    std::shared_ptr<paint::PropagationBatch> m_batch;
    std::vector<StatusChange> m_statuses;
    bool m_applied = true;  // by the job itself, before the push
};

}  // namespace segstudio::document
