#pragma once

#include <QList>
#include <QObject>

class QAction;
class QToolBar;
class QWidget;

namespace segstudio::ui::editor {

// The editor's frame actions, each with its key anywhere in `owner`'s window: Previous and Next
// Frame of the sequence (Alt+Page Up / Alt+Page Down: Page Up and Down alone are the browser's),
// and Propagate from the previous or next labelled frame (Ctrl+Shift+P, Ctrl+Alt+P), which the
// options row also offers as one Propagate button. They ask; the editor acts.
class FrameActions : public QObject {
    Q_OBJECT

public:
    FrameActions(QWidget* owner, QToolBar* optionsBar);

    QList<QAction*> stepActions() const { return m_stepActions; }            // previous, next
    QList<QAction*> propagateActions() const { return m_propagateActions; }  // from previous, from next

signals:
    void stepRequested(bool next);
    void propagateRequested(bool next);

private:
    QList<QAction*> m_stepActions;
    QList<QAction*> m_propagateActions;
};

}  // namespace segstudio::ui::editor
