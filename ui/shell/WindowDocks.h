#pragma once

#include "WorkspaceLayouts.h"

#include <QList>

class QAction;
class QMainWindow;
class QUndoGroup;
class QWidget;

namespace segstudio::ui::shell {

// The window's six docks around the rooms' widgets: made, named for the saved layout (their
// object names are WindowSettings' keys), placed in their first areas (the workspaces arrange
// them after), and their View-menu switches.
class WindowDocks {
public:
    struct Contents {
        QWidget* browser;
        QWidget* classes;
        QUndoGroup* history;  // its QUndoView: the project's edits or the open image's
        QWidget* training;
        QWidget* predictions;
        QWidget* evaluation;
    };
    WindowDocks(QMainWindow& window, const Contents& contents);

    const WorkspaceDocks& all() const { return m_docks; }
    QList<QAction*> toggleActions() const;
    // While a job rewrites the label maps, images and classes are not to be touched.
    void setLabelsBusy(bool busy);

private:
    WorkspaceDocks m_docks;
};

}  // namespace segstudio::ui::shell
