#include "AcceptPredictionsCommand.h"

#include "run/FileError.h"

namespace segstudio::ui {

AcceptPredictionsCommand::AcceptPredictionsCommand(std::shared_ptr<paint::PredictionBatch> batch, const QString& text,
                                                   BeforeChange beforeChange, AfterChange afterChange)
    : QUndoCommand(text), m_batch(std::move(batch)), m_beforeChange(std::move(beforeChange)),
      m_afterChange(std::move(afterChange))
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
    m_beforeChange();
    std::vector<std::size_t> kept;
    QString error;
    try {
        kept = forward ? m_batch->redo() : m_batch->undo();
    } catch (const run::FileError& failure) {
        error = QString::fromStdString(failure.what());
    }
    m_afterChange(m_batch->changed(), kept, error);
}

}  // namespace segstudio::ui
