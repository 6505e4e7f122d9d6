#include "ProjectToolBar.h"

#include "FixedTextAction.h"

#include <QToolButton>

namespace segstudio::ui::shell {

ProjectToolBar::ProjectToolBar(const Actions& actions, QWidget* parent) : QToolBar(tr("Project"), parent)
{
    setObjectName(QStringLiteral("projectToolBar"));
    setToolButtonStyle(Qt::ToolButtonIconOnly);
    setIconSize(QSize(22, 22));  // Breeze's grid: sharp, not scaled
    addActions(actions.project);
    addSeparator();
    addActions({new FixedTextAction(actions.undo, tr("Undo"), this), new FixedTextAction(actions.redo, tr("Redo"), this)});
    addSeparator();
    addActions(actions.view);
    addSeparator();
    addActions(actions.workspaces);
    for (QAction* workspace : actions.workspaces)
        if (auto* button = qobject_cast<QToolButton*>(widgetForAction(workspace)))
            button->setToolButtonStyle(Qt::ToolButtonTextOnly);
}

}  // namespace segstudio::ui::shell
