#include "WorkspaceLayouts.h"

#include "Workspaces.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTimer>

namespace segstudio::ui::shell {

namespace {

// Dock sizes apply to a laid-out window: after the layout has run.
template <typename Resize>
void resizeWhenLaidOut(QMainWindow& window, Resize resize)
{
    QTimer::singleShot(0, &window, resize);
}

}  // namespace

void defineDefaultWorkspaces(Workspaces& workspaces, QMainWindow& window, const WorkspaceDocks& docks)
{
    using Workspace = Workspaces::Workspace;
    QMainWindow* w = &window;
    workspaces.define(Workspace::Label, {{docks.browser, docks.classes, docks.history}, true, [w, docks] {
                          // One column beside the canvas: the image strip above the classes.
                          w->addDockWidget(Qt::LeftDockWidgetArea, docks.browser);
                          w->splitDockWidget(docks.browser, docks.classes, Qt::Vertical);
                          w->tabifyDockWidget(docks.classes, docks.history);
                          docks.classes->raise();
                          // Only the width: heights that add up to the window's would grow it past
                          // the screen (the column shares its height by itself).
                          resizeWhenLaidOut(*w, [w, docks] { w->resizeDocks({docks.browser}, {240}, Qt::Horizontal); });
                      }});
    workspaces.define(Workspace::Train, {{docks.training}, false, [w, docks] {
                          w->addDockWidget(Qt::BottomDockWidgetArea, docks.training);
                      }});
    workspaces.define(Workspace::Review,
                      {{docks.browser, docks.predictions, docks.evaluation, docks.classes}, true, [w, docks] {
                           w->addDockWidget(Qt::LeftDockWidgetArea, docks.browser);
                           w->addDockWidget(Qt::BottomDockWidgetArea, docks.predictions);
                           w->addDockWidget(Qt::RightDockWidgetArea, docks.evaluation);
                           w->tabifyDockWidget(docks.evaluation, docks.classes);
                           docks.evaluation->raise();
                           resizeWhenLaidOut(*w, [w, docks] {
                               w->resizeDocks({docks.browser, docks.evaluation}, {260, 420}, Qt::Horizontal);
                               w->resizeDocks({docks.predictions}, {w->centralWidget()->height() / 3}, Qt::Vertical);
                           });
                       }});
}

}  // namespace segstudio::ui::shell
