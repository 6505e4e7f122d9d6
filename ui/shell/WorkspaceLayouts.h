#pragma once

class QDockWidget;
class QMainWindow;

namespace segstudio::ui::shell {

class Workspaces;

// The window's docks, by job.
struct WorkspaceDocks {
    QDockWidget* browser;
    QDockWidget* classes;
    QDockWidget* history;
    QDockWidget* training;
    QDockWidget* predictions;
    QDockWidget* evaluation;
};

// The three workspaces and their first layouts (before the user arranges them):
// Label: the canvas, and one column beside it: the browser strip above classes and history;
// Train: the training panel alone (the canvas makes way); Review: the canvas, the browser (its
// score columns), the predictions panel under the canvas, the evaluation report on the right.
void defineDefaultWorkspaces(Workspaces& workspaces, QMainWindow& window, const WorkspaceDocks& docks);

}  // namespace segstudio::ui::shell
