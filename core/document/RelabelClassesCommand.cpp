#include "RelabelClassesCommand.h"

#include "ProjectDocument.h"

#include "data/project/DatasetRelabeler.h"
#include "data/labels/LabelClass.h"
#include "data/project/RelabelTransaction.h"

#include <QTimer>
#include <QUndoStack>

#include <atomic>

namespace segstudio::document {

namespace {

quint64 nextStep()
{
    static std::atomic<quint64> step{0};
    return ++step;
}

ProjectDocument::ClassTable tableOf(int fromId, int toId)
{
    ProjectDocument::ClassTable table;
    for (int v = 0; v < 256; ++v)
        table[std::size_t(v)] = std::uint8_t(v == fromId ? toId : v);
    return table;
}

// Which class went (and where its pixels went), or came back.
void announceClasses(ProjectDocument* document, int fromId, int toId, bool forward)
{
    if (!forward)
        emit document->classAdded(fromId);
    else if (toId == data::kUnlabelled)
        emit document->classRemoved(fromId);
    else
        emit document->classesMerged(fromId, toId);
}

}  // namespace

RelabelClassesCommand::RelabelClassesCommand(ProjectDocument* document, std::shared_ptr<data::RelabelTransaction> transaction,
                                             quint64 step, int fromId, int toId, data::ClassSchema before,
                                             data::ClassSchema after, const QString& text)
    : QUndoCommand(text), m_document(document), m_transaction(std::move(transaction)), m_step(step), m_fromId(fromId),
      m_toId(toId), m_before(std::move(before)), m_after(std::move(after))
{
}

RelabelClassesCommand::~RelabelClassesCommand() { m_transaction->discard(); }

void RelabelClassesCommand::start(ProjectDocument* document, int fromId, int toId, const QString& text)
{
    data::ClassSchema before = document->schema();
    data::ClassSchema after = before;
    after.remove(fromId);
    data::DatasetRelabeler relabeler;
    relabeler.map(fromId, toId);
    auto transaction = std::make_shared<data::RelabelTransaction>(document->newBackupFolder());
    auto outcome = std::make_shared<data::RelabelTransaction::Outcome>();
    document->runJob(
        text,
        [transaction, outcome, project = document->project(), relabeler, before, after](const auto& progress) {
            try {
                *outcome = transaction->apply(project, relabeler, before, after, progress);
            } catch (...) {
                transaction->discard();  // apply put back what it had replaced (kept if it could not)
                throw;
            }
            if (outcome->stopped)
                transaction->discard();  // stopped before any map was replaced
        },
        [=](const QString& error) {
            if (!error.isEmpty() || outcome->stopped) {
                if (!error.isEmpty())
                    document->reportError(QObject::tr("%1 failed, nothing was changed: %2").arg(text, error));
                else
                    emit document->message(QObject::tr("%1 cancelled, nothing was changed").arg(text));
                return;
            }
            if (!commit(document, *transaction, after)) {
                // The project file could not take the new schema: the maps go back to match it.
                const auto back = transaction->undo();
                document->applySchema(before);
                if (back.failed.empty()) {
                    transaction->settle();
                    transaction->discard();
                } else {
                    emit document->alert(QObject::tr("%1 failed").arg(text), describeUnfinished(*transaction, back, text));
                }
                document->announceLabelMaps(outcome->changed, {});
                return;
            }
            const quint64 step = nextStep();
            announceClasses(document, fromId, toId, true);
            document->announceRemap(step, tableOf(fromId, toId));
            document->announceLabelMaps(outcome->changed, {});
            document->pushLabelMapsEdit(new RelabelClassesCommand(document, transaction, step, fromId, toId, before, after, text));
            emit document->message(QObject::tr("%1: %n label map(s) relabelled (Undo takes it back)", nullptr,
                                               int(outcome->changed.size())).arg(text));
        },
        true);
}

bool RelabelClassesCommand::commit(ProjectDocument* document, data::RelabelTransaction& transaction,
                                   const data::ClassSchema& schema)
{
    document->applySchema(schema);
    if (!document->save())
        return false;
    try {
        transaction.settle();
    } catch (const std::exception& e) {
        // The maps and the project agree; only the journal is stale, and recovery would roll the
        // step back on the next start. Say so.
        document->reportError(QObject::tr("Could not settle the relabel journal: %1").arg(QString::fromStdString(e.what())));
    }
    return true;
}

void RelabelClassesCommand::undo()
{
    if (!m_applied || !m_document->prepareLabelMapsChange())
        return;  // (a failed redo left nothing to undo; a failed save of the open image is reported)
    auto outcome = std::make_shared<data::RelabelTransaction::Outcome>();
    m_document->runJob(
        QObject::tr("Undo %1").arg(text()), [transaction = m_transaction, outcome](const auto& progress) {
            *outcome = transaction->undo(progress);
        },
        [this, outcome](const QString& error) {
            if (!error.isEmpty())  // the journal could not even be written: nothing was touched
                m_document->reportError(QObject::tr("Undo %1 failed, nothing was changed: %2").arg(text(), error));
            else
                finishUndo(*outcome);
        });
}

// Even a partial undo leaves only ids the old class list knows: it is the one to save. The step is
// settled (its backups may go) only when every map is back; otherwise it stays unfinished on
// disk and on the stack, so Undo tries again and the next open finishes it.
void RelabelClassesCommand::finishUndo(const data::RelabelTransaction::Outcome& outcome)
{
    const bool complete = outcome.failed.empty();
    m_document->applySchema(m_before);
    if (m_document->save() && complete) {
        try {
            m_transaction->settle();
        } catch (const std::exception& e) {
            m_document->reportError(QObject::tr("Could not settle the relabel journal: %1").arg(QString::fromStdString(e.what())));
        }
    }
    std::vector<std::size_t> kept = outcome.kept;
    for (const auto& failure : outcome.failed)
        kept.push_back(failure.index);
    if (!m_partlyUndone) {
        announceClasses(m_document, m_fromId, m_toId, false);
        m_document->announceRemapUndone(m_step, kept);
    }
    m_document->announceLabelMaps(outcome.changed, kept);
    m_partlyUndone = !complete;
    if (complete) {
        m_applied = false;
        return;
    }
    emit m_document->alert(QObject::tr("Undo stopped part way"), describeUnfinished(*m_transaction, outcome, text()) +
                                                                    QObject::tr("\n\nEdit > Undo tries again."));
    // Back onto the stack as not yet undone, so Undo retries (the redo this queues does nothing).
    m_retryUndo = true;
    QTimer::singleShot(0, m_document->undoStack(), [stack = m_document->undoStack()] { stack->redo(); });
}

QString RelabelClassesCommand::describeUnfinished(const data::RelabelTransaction& transaction,
                                                  const data::RelabelTransaction::Outcome& outcome, const QString& text)
{
    return QObject::tr("%1: %n label map(s) could not be written back (first: %2). The others are back as they "
                       "were, and so is the class list.\n\nNothing is lost: the backups of every map are kept in %3, "
                       "and the next time the project opens SegStudio finishes putting them back.",
                       nullptr, int(outcome.failed.size()))
        .arg(text, QString::fromStdString(outcome.failed.front().message), QString::fromStdString(transaction.folder().string()));
}

void RelabelClassesCommand::redo()
{
    if (m_skipFirstRedo || m_retryUndo) {
        m_skipFirstRedo = m_retryUndo = false;
        return;
    }
    if (m_applied || !m_document->prepareLabelMapsChange())
        return;
    auto outcome = std::make_shared<data::RelabelTransaction::Outcome>();
    m_document->runJob(
        QObject::tr("Redo %1").arg(text()),
        [transaction = m_transaction, outcome, project = m_document->project()](const auto& progress) {
            *outcome = transaction->redo(project, progress);  // a failure puts back what it replaced
        },
        [this, outcome](const QString& error) {
            if (!error.isEmpty()) {
                m_document->applySchema(m_before);
                m_document->save();
                if (m_transaction->unfinished())
                    emit m_document->alert(QObject::tr("Redo failed"),
                                           QObject::tr("Redo %1 failed: %2\n\nSome label maps could not be put back; "
                                                       "their backups are kept in %3 and the next time the project "
                                                       "opens SegStudio puts them back.")
                                               .arg(text(), error, QString::fromStdString(m_transaction->folder().string())));
                else
                    m_document->reportError(QObject::tr("Redo %1 failed, nothing was changed: %2").arg(text(), error));
                return;
            }
            commit(m_document, *m_transaction, m_after);
            m_applied = true;
            announceClasses(m_document, m_fromId, m_toId, true);
            m_document->announceRemap(m_step, tableOf(m_fromId, m_toId));
            m_document->announceLabelMaps(outcome->changed, {});
        });
}

}  // namespace segstudio::document
