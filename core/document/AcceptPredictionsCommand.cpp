#include "AcceptPredictionsCommand.h"

#include "ProjectDocument.h"

#include <algorithm>


namespace segstudio::document {

AcceptPredictionsCommand::AcceptPredictionsCommand(ProjectDocument* document, std::shared_ptr<paint::PredictionBatch> batch,
                                                   const QString& text)
    : QUndoCommand(text), m_document(document), m_batch(std::move(batch))
{
}

AcceptPredictionsCommand::~AcceptPredictionsCommand() { m_batch->discard(); }

void AcceptPredictionsCommand::start(ProjectDocument* document, const data::PredictionCache& cache,
                                     std::vector<std::size_t> indices, const paint::AcceptOptions& options,
                                     const paint::WriteGuard& guard)
{
    auto batch = std::make_shared<paint::PredictionBatch>(document->newBackupFolder());
    auto pixels = std::make_shared<std::int64_t>(0);
    // Images without a prediction of this checkpoint are left as they are: said afterwards, not
    // skipped in silence (issue 47.10).
    const auto unpredicted = int(std::count_if(indices.begin(), indices.end(), [&](std::size_t index) {
        return !cache.contains(data::PredictionCache::keyOf(document->project(), index));
    }));
    const QString skipped =
        unpredicted == 0 ? QString()
                         : QObject::tr("; %n selected image(s) without a prediction were left as they are", nullptr, unpredicted);
    document->runJob(
        QObject::tr("Accepting the prediction"),
        [batch, pixels, cache, indices = std::move(indices), options, guard, project = document->project()](const auto& progress) {
            *pixels = batch->apply(project, cache, indices, options, guard, progress);
        },
        [document, batch, pixels, skipped](const QString& error) {
            if (!error.isEmpty() || batch->changed().empty()) {
                batch->discard();  // on a failure the batch put back what it had replaced (kept if it could not)
                if (!error.isEmpty())
                    document->reportError(QObject::tr("Accept prediction failed, nothing was changed: %1").arg(error));
                else
                    emit document->message(QObject::tr("Nothing to accept: no current prediction, or nothing the locks allow") + skipped);
                document->announceLabelMaps(batch->changed(), {});
                return;
            }
            const QString text = QObject::tr("Accept prediction for %n image(s)", nullptr, int(batch->changed().size()));
            document->pushLabelMapsEdit(new AcceptPredictionsCommand(document, batch, text));
            document->announceLabelMaps(batch->changed(), {});
            document->announceReplacedMaps(batch->changed());
            emit document->message(QObject::tr("%1: %2 pixels%3 (Undo takes it back)").arg(text).arg(*pixels).arg(skipped));
        },
        /*cancellable=*/true);
}

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
