#include "PropagateAlongSequenceCommand.h"

#include "ProjectDocument.h"

#include <QStringList>

#include <algorithm>

namespace segstudio::document {

namespace {

using Summary = paint::PropagationBatch::Summary;

// "93", "1.2": whole percents from 10 on, one decimal below, so a small share never reads 0 (as
// the editor's Propagate says it).
QString percent(std::int64_t part, std::int64_t total)
{
    const double value = total > 0 ? 100.0 * double(part) / double(total) : 0.0;
    return QString::number(value, 'f', value < 10.0 ? 1 : 0);
}

// The unlabelled frames that were not written, and why: said, never skipped in silence.
QString leftUnlabelled(const Summary& summary)
{
    QStringList parts;
    if (summary.noSource > 0)
        parts << QObject::tr("%n frame(s) with no labelled frame right before them", nullptr, int(summary.noSource));
    if (summary.nothingCarried > 0)
        parts << QObject::tr("%n frame(s) the flow could carry nothing into", nullptr, int(summary.nothingCarried));
    if (summary.otherSize > 0)
        parts << QObject::tr("%n frame(s) of another size than the frame before", nullptr, int(summary.otherSize));
    return parts.isEmpty() ? QString() : QObject::tr("; left unlabelled: %1").arg(parts.join(QStringLiteral(", ")));
}

bool contains(const std::vector<std::size_t>& indices, std::size_t index)
{
    return std::find(indices.begin(), indices.end(), index) != indices.end();
}

}  // namespace

PropagateAlongSequenceCommand::PropagateAlongSequenceCommand(ProjectDocument* document,
                                                             std::shared_ptr<paint::PropagationBatch> batch,
                                                             std::vector<StatusChange> statuses, const QString& text)
    : QUndoCommand(text), m_document(document), m_batch(std::move(batch)), m_statuses(std::move(statuses))
{ }

PropagateAlongSequenceCommand::~PropagateAlongSequenceCommand() { m_batch->discard(); }

void PropagateAlongSequenceCommand::start(ProjectDocument* document, std::vector<std::size_t> frames,
                                          std::optional<data::PredictionCache> cache, int minConfidence)
{
    auto batch = std::make_shared<paint::PropagationBatch>(document->newBackupFolder());
    auto summary = std::make_shared<Summary>();
    paint::LabelPropagator::Parameters parameters;
    // minConfidence: the user's Accept threshold; the prediction fills what the flow cannot carry
    // from there on (issue 61.2: at any confidence by default), and "sure" is at least even odds.
    parameters.fillAbove = std::clamp(minConfidence, 0, 255);
    parameters.minConfidence = std::max(parameters.minConfidence, parameters.fillAbove);
    document->runJob(
        QObject::tr("Propagating labels along the sequence"),
        [batch, summary, frames = std::move(frames), cache = std::move(cache), parameters,
         project = document->project()](const auto& progress) {
            *summary = batch->apply(project, frames, cache ? &*cache : nullptr, parameters, progress);
        },
        [document, batch, summary](const QString& error) { finishJob(document, batch, *summary, error); },
        /*cancellable=*/true);
}

void PropagateAlongSequenceCommand::finishJob(ProjectDocument* document,
                                              const std::shared_ptr<paint::PropagationBatch>& batch,
                                              const Summary& summary, const QString& error)
{
    if (!error.isEmpty() || summary.stopped || batch->changed().empty()) {
        batch->discard();  // on a failure the batch put back what it had replaced (kept if it could not)
        if (!error.isEmpty())
            document->reportError(QObject::tr("Propagating the labels failed, nothing was changed: %1").arg(error));
        else if (summary.stopped)
            emit document->message(QObject::tr("Propagation cancelled: nothing was changed"));
        else
            emit document->message(QObject::tr("Nothing to propagate")
                                   + (summary.labelled > 0 ? QObject::tr("; %n frame(s) already have labels", nullptr,
                                                                         int(summary.labelled))
                                                           : QString())
                                   + leftUnlabelled(summary));
        return;
    }
    const std::vector<std::size_t>& written = batch->changed();
    std::vector<StatusChange> statuses;
    for (std::size_t index : written)
        if (document->project().entry(index).status == data::LabelStatus::Unlabelled)
            statuses.emplace_back(index, data::LabelStatus::Unlabelled);
    if (!commit(document, *batch, statuses, written, true)) {
        // The project file cannot take the statuses: the maps go back to match it, as they were.
        const data::LabelMapTransaction::Outcome back = batch->undo();
        for (const auto& [index, before] : statuses)
            document->applyStatus(index, before);
        if (back.failed.empty()) {
            batch->settle();
            batch->discard();
        } else {
            emit document->alert(
                QObject::tr("Propagation failed"),
                QObject::tr("The project file could not be saved, and %n label map(s) could not be put "
                            "back (first: %1). Nothing is lost: their backups are kept in %2, and the next "
                            "time the project opens SegStudio puts them back.",
                            nullptr, int(back.failed.size()))
                    .arg(QString::fromStdString(back.failed.front().message),
                         QString::fromStdString(batch->folder().string())));
        }
        document->announceLabelMaps(written, {});
        document->announceReplacedMaps(written);
        return;
    }
    const QString text =
        QObject::tr("Propagate labels along the sequence into %n frame(s)", nullptr, int(written.size()));
    document->pushLabelMapsEdit(new PropagateAlongSequenceCommand(document, batch, std::move(statuses), text));
    document->announceLabelMaps(written, {});
    document->announceReplacedMaps(written);
    QString said = QObject::tr("%1: carried %2 % of their pixels").arg(text, percent(summary.carried, summary.pixels));
    if (summary.filledByModel > 0)
        said += summary.corrected > 0
                    ? QObject::tr("; the model, corrected by the labelled frame, filled %1 %")
                          .arg(percent(summary.filledByModel, summary.pixels))
                    : QObject::tr("; the model filled %1 %").arg(percent(summary.filledByModel, summary.pixels));
    if (summary.disagree > 0)
        said += QObject::tr("; %1 % disagree with the model").arg(percent(summary.disagree, summary.pixels));
    emit document->message(said + leftUnlabelled(summary) + QObject::tr(" (Undo takes it back)"));
}

bool PropagateAlongSequenceCommand::commit(ProjectDocument* document, paint::PropagationBatch& batch,
                                           const std::vector<StatusChange>& statuses,
                                           const std::vector<std::size_t>& written, bool forward)
{
    for (const auto& [index, before] : statuses) {
        if (index >= document->size() || !contains(written, index))
            continue;
        const data::LabelStatus now = document->project().entry(index).status;
        // Only what this step set: a status the user chose since stays.
        if (forward && now == before)
            document->applyStatus(index, data::LabelStatus::InProgress);
        else if (!forward && now == data::LabelStatus::InProgress)
            document->applyStatus(index, before);
    }
    if (!document->save())
        return false;
    try {
        batch.settle();
    } catch (const std::exception& e) {
        // Maps and project agree; only the journal is stale, and the next open would roll the step back.
        document->reportError(
            QObject::tr("Could not settle the propagation journal: %1").arg(QString::fromStdString(e.what())));
    }
    return true;
}

void PropagateAlongSequenceCommand::undo() { change(false); }

void PropagateAlongSequenceCommand::redo()
{
    if (m_applied) {
        m_applied = false;  // QUndoStack::push calls redo: the job already ran
        return;
    }
    change(true);
}

void PropagateAlongSequenceCommand::change(bool forward)
{
    m_document->prepareLabelMapsChange();  // a failure is reported; a map it leaves unsaved counts as edited since
    const data::LabelMapTransaction::Outcome outcome = forward ? m_batch->redo() : m_batch->undo();
    if (outcome.failed.empty()) {
        commit(m_document, *m_batch, m_statuses, outcome.changed, forward);
    } else {
        // The maps that were written back take their statuses; the step stays unfinished, for the
        // next open to roll back (all or nothing).
        for (const auto& [index, before] : m_statuses)
            if (index < m_document->size() && contains(outcome.changed, index))
                m_document->applyStatus(index, forward ? data::LabelStatus::InProgress : before);
        m_document->save();
        emit m_document->alert(
            forward ? QObject::tr("Redo failed") : QObject::tr("Undo failed"),
            QObject::tr("%1 %2 could not finish: %n label map(s) could not be written (first: %3)."
                        "\n\nThe other label maps were written. Nothing is lost: the next time the "
                        "project opens, the unfinished change is rolled back to the labels before it.",
                        nullptr, int(outcome.failed.size()))
                .arg(forward ? QObject::tr("Redo of") : QObject::tr("Undo of"), text(),
                     QString::fromStdString(outcome.failed.front().message)));
    }
    m_document->announceLabelMaps(m_batch->changed(), outcome.kept);
    m_document->announceReplacedMaps(m_batch->changed());
}

}  // namespace segstudio::document
