#include "SequencePropagator.h"

#include "PredictionsDock.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "paint/LabelPropagator.h"
#include "paint/PropagationBatch.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

#include <algorithm>
#include <vector>

namespace segstudio::ui::predictions {

namespace {

std::vector<std::size_t> framesOf(const data::Project& project, const QList<std::size_t>& entries)
{
    return paint::PropagationBatch::framesFor(project, {entries.begin(), entries.end()});
}

// The frames the job may write, as far as their statuses tell (whether a map holds labels is
// the job's to find out, off the GUI thread).
QList<std::size_t> unlabelledOf(const data::Project& project, const std::vector<std::size_t>& frames)
{
    QList<std::size_t> unlabelled;
    for (const std::size_t index : frames) {
        const data::LabelStatus status = project.entry(index).status;
        if (status == data::LabelStatus::Unlabelled || status == data::LabelStatus::InProgress)
            unlabelled << index;
    }
    return unlabelled;
}

}  // namespace

SequencePropagator::SequencePropagator(PredictionsDock* predictions, QObject* parent)
    : QObject(parent), m_predictions(predictions)
{ }

bool SequencePropagator::canStart()
{
    if (!m_document)
        return false;
    if (m_document->isReadOnly()) {
        emit statusMessage(m_document->readOnlyReason());
        return false;
    }
    if (m_document->isBusy()) {
        emit statusMessage(tr("Another dataset job is running: propagate when it is done."));
        return false;
    }
    return true;
}

void SequencePropagator::ask(const QList<std::size_t>& entries, QWidget* parent)
{
    if (!canStart() || entries.isEmpty())
        return;
    const data::Project& project = m_document->project();
    const std::vector<std::size_t> frames = framesOf(project, entries);
    if (frames.empty())
        return;
    // The image the user chose: with one selected, the sequence is named after it.
    const std::size_t chosen = entries.front() < project.size() ? entries.front() : frames.front();
    const QString name = QFileInfo(QString::fromStdString(project.entry(chosen).image)).fileName();
    if (entries.size() == 1 && frames.size() == 1) {
        emit statusMessage(tr("%1 is a frame alone: there is no frame to carry labels from.").arg(name));
        return;
    }
    const QList<std::size_t> unlabelled = unlabelledOf(project, frames);
    if (unlabelled.isEmpty()) {
        emit statusMessage(tr("Every one of the %n frame(s) has labels: there is nothing to propagate into.", nullptr,
                              int(frames.size())));
        return;
    }
    QString text = entries.size() == 1
        ? tr("Carry labels along the sequence of %1 into its %n unlabelled frame(s)?", nullptr, int(unlabelled.size()))
              .arg(name)
        : tr("Carry labels along the sequence into %n of the selected frames, those without labels?", nullptr,
             int(unlabelled.size()));
    text += QLatin1Char(' ')
        + tr("Each unlabelled frame right after a labelled one takes the labels of the frame before it, by optical "
             "flow, frame after frame; frames that have labels are never changed, and pixels the flow cannot vouch "
             "for stay unlabelled. Undo takes it back.");
    const QString checkpoint = m_predictions->checkpointFile();
    QList<std::size_t> missing;
    if (checkpoint.isEmpty()) {
        text += QStringLiteral("\n\n")
            + tr("With a trained run chosen (Training panel), the model's sure predictions would "
                 "also fill what the flow cannot carry.");
    } else {
        missing = m_predictions->unpredicted(unlabelled);
        const int predicted = int(unlabelled.size() - missing.size());
        text += QStringLiteral("\n\n")
            + (missing.isEmpty()
                   ? tr("The chosen checkpoint has predicted each of them: where it is sure, it fills what the flow "
                        "cannot carry.")
                   : tr("The chosen checkpoint has predicted %1 of the %n frame(s): where it is sure, it fills "
                        "what the flow cannot carry there.",
                        nullptr, int(unlabelled.size()))
                         .arg(predicted))
            + QLatin1Char(' ')
            + tr("Where it has also predicted the labelled frame before them, it is first corrected by that "
                 "frame's labels.");
    }
    QMessageBox box(QMessageBox::Question, tr("Propagate labels along the sequence"), text, QMessageBox::Cancel,
                    parent);
    box.setObjectName(QStringLiteral("propagateSequenceBox"));
    QPushButton* predictFirst = nullptr;
    if (!missing.isEmpty()) {
        predictFirst =
            box.addButton(tr("Predict %n Frame(s) First", nullptr, int(missing.size())), QMessageBox::ActionRole);
        predictFirst->setObjectName(QStringLiteral("predictFramesFirstButton"));
    }
    QPushButton* propagateButton = box.addButton(tr("Propagate"), QMessageBox::AcceptRole);
    propagateButton->setObjectName(QStringLiteral("propagateFramesButton"));
    box.setDefaultButton(propagateButton);
    box.exec();
    if (predictFirst && box.clickedButton() == predictFirst) {
        emit statusMessage(
            m_predictions->predictImages(missing)
                ? tr("Predicting %n frame(s); propagate again when they are done.", nullptr, int(missing.size()))
                : tr("The Predictions panel is busy (predicting or evaluating): try again when it is done."));
        return;
    }
    if (box.clickedButton() == propagateButton)
        propagate(entries);
}

bool SequencePropagator::propagate(const QList<std::size_t>& entries)
{
    if (!canStart())
        return false;
    std::vector<std::size_t> frames = framesOf(m_document->project(), entries);
    if (frames.empty())
        return false;
    // The Accept threshold the user set: the least a prediction must be sure to fill a pixel (and
    // "sure" for review is at least even odds above that, as the editor's Propagate says it).
    const int minConfidence = m_minConfidence ? m_minConfidence() : 0;
    const QString checkpoint = m_predictions->checkpointFile();
    // The document saves the open image first (its edits reach disk before the job reads the maps).
    const bool started = m_document->propagateAlongSequence(
        std::move(frames), m_predictions->runDirectory().toStdString(), checkpoint.toStdString(), minConfidence);
    if (!started)
        emit statusMessage(
            tr("Could not start the propagation: the open image's labels or the project file could not be saved."));
    return started;
}

}  // namespace segstudio::ui::predictions
