#pragma once

#include <QMenu>

namespace segstudio::ui::shell {

class MainWindow;
class Workspaces;

// Help: the keyboard shortcuts of every action in the window (F1), how labeling works (over the
// canvas when a project is open, else in a box), and About.
class HelpMenu : public QMenu {
    Q_OBJECT

public:
    HelpMenu(MainWindow* window, Workspaces* workspaces);
};

}  // namespace segstudio::ui::shell
