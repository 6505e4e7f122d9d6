#include "AcceptPredictionsCommand.h"

#include "ProjectDocument.h"


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
    } catch (const std::exception& failure) {
        emit m_document->alert(forward ? QObject::tr("Redo failed") : QObject::tr("Undo failed"),
                               QObject::tr("%1 %2 could not finish: %3\n\nThe other label maps were written. Nothing is "
                                           "lost: the next time the project opens, the unfinished change is rolled back "
                                           "to the labels before it.")
                                   .arg(forward ? QObject::tr("Redo of") : QObject::tr("Undo of"), text(),
                                        QString::fromStdString(failure.what())));
    }
    m_document->announceLabelMaps(m_batch->changed(), kept);
    m_document->announceReplacedMaps(m_batch->changed());
}

}  // namespace segstudio::document
