#pragma once

#include <QList>
#include <QObject>

class QAction;
class QActionGroup;
class QKeySequence;
class QToolBar;
class QWidget;

namespace segstudio::ui::editor {

class AbstractTool;
class LabelCanvas;
class ToolSettings;

// The editor's nine tools as exclusive, checkable actions on its tool bar, each with its key
// anywhere in the window (B, E, P, F, W, S, G, C, I); triggering one hands the canvas its tool.
// The tools and actions belong to `owner` (the editor), whose window the keys work in. The brush
// is chosen at the start.
class ToolActions : public QObject {
    Q_OBJECT

public:
    ToolActions(QWidget* owner, QToolBar* bar, ToolSettings* settings, LabelCanvas* canvas);

    QList<QAction*> actions() const { return m_actions; }

signals:
    void message(const QString& text);  // a tool's status line

private:
    void add(AbstractTool* tool, const QString& id, const QKeySequence& key);

    QWidget* m_owner;
    QToolBar* m_bar;
    LabelCanvas* m_canvas;
    QActionGroup* m_group;
    QList<QAction*> m_actions;
};

}  // namespace segstudio::ui::editor
