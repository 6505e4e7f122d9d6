#pragma once

#include "data/project/PredictionCache.h"
#include "paint/PredictionBatch.h"

#include <QString>
#include <QUndoCommand>

#include <memory>

namespace segstudio::document {

class ProjectDocument;

// "Accept Prediction" for a selection of images, on the project's undo stack. The batch has been
// applied when the command is pushed (so the first redo does nothing); undo and redo write the
// kept label maps back (PredictionBatch), leaving alone any map labelled since; the open image is
// saved first and reloads what changed (labelMapsReplaced). Dropping the command from the stack
// removes its backups.
class AcceptPredictionsCommand : public QUndoCommand {
public:
    // Runs the batch as a document job (on a worker, cancellable until a map is replaced) and
    // pushes the command when it changed something; the outcome is the document's message (or
    // error). What it needs from the editor comes in: the confidence floor (options) and the
    // locks (guard). The caller has saved the open image (ProjectDocument::acceptPredictions).
    static void start(ProjectDocument* document, const data::PredictionCache& cache, std::vector<std::size_t> indices,
                      const paint::AcceptOptions& options, const paint::WriteGuard& guard);

    AcceptPredictionsCommand(ProjectDocument* document, std::shared_ptr<paint::PredictionBatch> batch, const QString& text);
    ~AcceptPredictionsCommand() override;

    void undo() override;
    void redo() override;

private:
    void change(bool forward);

    ProjectDocument* m_document;
    std::shared_ptr<paint::PredictionBatch> m_batch;
    bool m_applied = true;  // by the batch itself, before the push
};

}  // namespace segstudio::document
