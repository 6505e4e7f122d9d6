#pragma once

#include "data/labels/ClassSchema.h"
#include "data/project/RelabelTransaction.h"

#include <QUndoCommand>

#include <memory>

namespace segstudio::document {

class ProjectDocument;

// Merging class a into b, or deleting a (a -> unlabelled): the class leaves the schema and every
// label map is relabelled, on a worker, through a data::RelabelTransaction (backups first, a
// journal, atomic writes), so undo restores the exact bytes and a crash is rolled back on the next
// start. Merge and delete are one command: both are an id table applied to the dataset.
// The command is pushed only once the job has succeeded (its first redo does nothing); undo and
// redo are jobs too, during which the document is busy. The open image follows in memory through
// classesRemapped / classesRemapUndone, so its pixel history survives.
class RelabelClassesCommand : public QUndoCommand {
public:
    // Saves nothing itself: the document has saved the open image and the project file.
    static void start(ProjectDocument* document, int fromId, int toId, const QString& text);
    ~RelabelClassesCommand() override;

    void undo() override;
    void redo() override;

private:
    RelabelClassesCommand(ProjectDocument* document, std::shared_ptr<data::RelabelTransaction> transaction, quint64 step,
                          int fromId, int toId, data::ClassSchema before, data::ClassSchema after, const QString& text);
    // After a step's maps are on disk: the schema that matches them, saved, then the journal settled.
    static bool commit(ProjectDocument* document, data::RelabelTransaction& transaction, const data::ClassSchema& schema);
    void finishUndo(const data::RelabelTransaction::Outcome& outcome);
    // What an unfinished step did and kept, for the modal message.
    static QString describeUnfinished(const data::RelabelTransaction& transaction,
                                      const data::RelabelTransaction::Outcome& outcome, const QString& text);

    ProjectDocument* m_document;
    std::shared_ptr<data::RelabelTransaction> m_transaction;
    quint64 m_step;
    int m_fromId;
    int m_toId;
    data::ClassSchema m_before;
    data::ClassSchema m_after;
    bool m_skipFirstRedo = true;  // the job applied it before the push
    bool m_applied = true;        // what is on disk: a failed step leaves the stack index ahead of it
    bool m_partlyUndone = false;  // an undo wrote back some maps, not all: the class is already back
    bool m_retryUndo = false;     // the redo queued after a partial undo only moves the stack back
};

}  // namespace segstudio::document
