#include "PredictionAcceptor.h"

#include "PredictionsDock.h"
#include "document/ProjectDocument.h"

#include <QMessageBox>
#include <QPushButton>

namespace segstudio::ui::predictions {

PredictionAcceptor::PredictionAcceptor(PredictionsDock* predictions, QObject* parent)
    : QObject(parent), m_predictions(predictions)
{
}

void PredictionAcceptor::ask(const QList<std::size_t>& entries, QWidget* parent)
{
    // How many have a prediction is said before acting (issue 47.10): the others would be left
    // as they are, so predicting them first is offered.
    if (m_predictions->checkpointFile().isEmpty()) {
        emit statusMessage(tr("Choose a run with predictions first (Training panel)"));
        return;
    }
    const QList<std::size_t> missing = m_predictions->unpredicted(entries);
    const int predicted = int(entries.size() - missing.size());
    QString text = tr("Copy the predicted classes of %n image(s) into their labels? Locked classes keep their pixels; "
                      "Undo takes it back.", nullptr, predicted);
    if (!missing.isEmpty())
        text = predicted == 0 ? tr("None of the %n selected image(s) has a prediction of the chosen checkpoint yet.", nullptr,
                                   int(entries.size()))
                              : tr("%1 of the %n selected image(s) have a prediction; the other %2 would be left as they are.",
                                   nullptr, int(entries.size()))
                                        .arg(predicted)
                                        .arg(missing.size()) +
                                    QLatin1Char(' ') + text;
    QMessageBox box(QMessageBox::Question, tr("Accept prediction"), text, QMessageBox::Cancel, parent);
    QPushButton* predictFirst =
        missing.isEmpty() ? nullptr : box.addButton(tr("Predict %n Image(s) First", nullptr, int(missing.size())), QMessageBox::ActionRole);
    QPushButton* unlabelled = predicted > 0 ? box.addButton(tr("Into unlabelled pixels"), QMessageBox::AcceptRole) : nullptr;
    QPushButton* everywhere = predicted > 0 ? box.addButton(tr("Everywhere"), QMessageBox::AcceptRole) : nullptr;
    box.exec();
    if (predictFirst && box.clickedButton() == predictFirst) {
        emit statusMessage(m_predictions->predictImages(missing)
                               ? tr("Predicting %n image(s); accept again when they are done.", nullptr, int(missing.size()))
                               : tr("The Predictions panel is busy (predicting or evaluating): try again when it is done."));
        return;
    }
    if (box.clickedButton() && (box.clickedButton() == unlabelled || box.clickedButton() == everywhere))
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

}  // namespace segstudio::ui::predictions
