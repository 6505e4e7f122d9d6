#include "PredictionAcceptor.h"

#include "PredictionsDock.h"
#include "document/ProjectDocument.h"

#include <QMessageBox>
#include <QPushButton>

namespace segstudio::ui {

PredictionAcceptor::PredictionAcceptor(PredictionsDock* predictions, QObject* parent)
    : QObject(parent), m_predictions(predictions)
{
}

void PredictionAcceptor::ask(const QList<std::size_t>& entries, QWidget* parent)
{
    QMessageBox box(QMessageBox::Question, tr("Accept prediction"),
                    tr("Copy the predicted classes of %n image(s) into their labels? Locked classes keep their pixels; "
                       "Undo takes it back.", nullptr, int(entries.size())),
                    QMessageBox::Cancel, parent);
    QPushButton* unlabelled = box.addButton(tr("Into unlabelled pixels"), QMessageBox::AcceptRole);
    QPushButton* everywhere = box.addButton(tr("Everywhere"), QMessageBox::AcceptRole);
    box.exec();
    if (box.clickedButton() == unlabelled || box.clickedButton() == everywhere)
        accept(entries, box.clickedButton() == unlabelled);
}

bool PredictionAcceptor::accept(const QList<std::size_t>& entries, bool unlabelledOnly)
{
    const QString checkpoint = m_predictions->checkpointFile();
    if (m_document && m_document->isReadOnly()) {
        emit statusMessage(m_document->readOnlyReason());
        return false;
    }
    if (!m_document || m_document->isBusy() || checkpoint.isEmpty() || entries.isEmpty()) {
        emit statusMessage(tr("Choose a run with predictions first (Training panel)"));
        return false;
    }
    const Limits limits = m_limits ? m_limits() : Limits{};
    paint::AcceptOptions options;
    options.unlabelledOnly = unlabelledOnly;
    options.minConfidence = limits.minConfidence;
    // The document saves the open image first (its edits reach disk before the batch reads them).
    return m_document->acceptPredictions(m_predictions->runDirectory().toStdString(), checkpoint.toStdString(),
                                         {entries.begin(), entries.end()}, options, limits.guard);
}

}  // namespace segstudio::ui
