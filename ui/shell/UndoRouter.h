#pragma once

#include <QObject>

class QAction;
class QUndoGroup;
class QUndoStack;

namespace segstudio::ui::shell {

// Edit > Undo and Redo over the editor's undo group (the project's stack and the open image's
// pixel stack). Undo acts on the stack of the last edit (the group's active one); when that one
// has nothing left to undo it moves on to the other, so undoing a merge and then pressing Undo
// again takes back the stroke painted before it, as a user expects. Redo likewise.
class UndoRouter : public QObject {
    Q_OBJECT

public:
    explicit UndoRouter(QUndoGroup* group, QObject* parent = nullptr);

    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    void update();  // enabled state and text (also called on every change the group reports)

private:
    QUndoStack* stackFor(bool undo) const;

    QUndoGroup* m_group;
    QAction* m_undo;
    QAction* m_redo;
};

}  // namespace segstudio::ui::shell
