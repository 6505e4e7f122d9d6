#include "AcceptPredictionsCommand.h"

#include "ProjectDocument.h"

#include "run/FileError.h"

namespace segstudio::document {

AcceptPredictionsCommand::AcceptPredictionsCommand(ProjectDocument* document, std::shared_ptr<paint::PredictionBatch> batch,
                                                   const QString& text)
    : QUndoCommand(text), m_document(document), m_batch(std::move(batch))
{
}

AcceptPredictionsCommand::~AcceptPredictionsCommand() { m_batch->discard(); }

void AcceptPredictionsCommand::undo() { change(false); }

void AcceptPredictionsCommand::redo()
{
    if (m_applied) {
        m_applied = false;  // QUndoStack::push calls redo: the batch already ran
        return;
    }
    change(true);
}

void AcceptPredictionsCommand::change(bool forward)
{
    m_document->prepareLabelMapsChange();  // a failure is reported; a map it leaves unsaved counts as edited since
    std::vector<std::size_t> kept;
    try {
        kept = forward ? m_batch->redo() : m_batch->undo();
    } catch (const run::FileError& failure) {
        m_document->reportError(QObject::tr("%1: %2").arg(text(), QString::fromStdString(failure.what())));
    }
    m_document->announceLabelMaps(m_batch->changed(), kept);
    m_document->announceReplacedMaps(m_batch->changed());
}

}  // namespace segstudio::document
