#pragma once

#include <QList>
#include <QToolBar>

class QAction;

namespace segstudio::ui::shell {

// The window's one tool bar: the project's actions, undo and redo, the editor's view actions and
// the workspaces. Icons only, each tooltip naming the action and its key (in words the row filled
// 1600 px); the undo buttons are fixed-text stand-ins (the real actions' text grows with the command,
// "Undo Magic wand", and would shift every button after them); the workspaces keep their names:
// three words that say where the user is.
class ProjectToolBar : public QToolBar {
    Q_OBJECT

public:
    struct Actions {
        QList<QAction*> project;  // New, Open, Save
        QAction* undo = nullptr;
        QAction* redo = nullptr;
        QList<QAction*> view;
        QList<QAction*> workspaces;
    };

    ProjectToolBar(const Actions& actions, QWidget* parent);
};

}  // namespace segstudio::ui::shell
