#pragma once

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
