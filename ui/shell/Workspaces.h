#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>

#include <array>
#include <functional>

class QAction;
class QActionGroup;
class QDockWidget;
class QMainWindow;
class QSettings;
class QWidget;

namespace segstudio::ui::shell {

// The window serves one job at a time: Label (the canvas as large as the screen allows, the
// browser strip, classes), Train (runs, plots, details, log: the canvas makes way) and Review
// (prediction layers on the canvas, the predictions panel with its suspects, the evaluation
// report). Each workspace names its docks and whether the centre shows; its dock layout is the
// user's own (QMainWindow::saveState per workspace, kept in QSettings), and the first time a
// workspace is shown it gets its default layout. Switched with Ctrl+1/2/3 or the bar's buttons.
// Without a project no dock shows (the start page fills the window).
// Requirements: GUI thread; the window and docks outlive it.
class Workspaces : public QObject {
    Q_OBJECT

public:
    enum class Workspace { Label, Train, Review };
    static constexpr int kCount = 3;

    struct Definition {
        QList<QDockWidget*> docks;          // what it shows
        bool showsCentre = true;            // the canvas (or start page)
        std::function<void()> defaultLayout;  // places its docks the first time (sizes included)
    };

    Workspaces(QMainWindow* window, QWidget* centre);

    void define(Workspace workspace, Definition definition);
    QAction* action(Workspace workspace) const { return m_actions[std::size_t(workspace)]; }
    QList<QAction*> actions() const;
    Workspace current() const { return m_current; }
    static QString key(Workspace workspace);  // "label", "train", "review"

    void switchTo(Workspace workspace);
    // A project opened (true) or closed, or none yet (false): its workspace's docks show, or none.
    void setProjectOpen(bool open);

    void readSettings(const QSettings& settings);  // the layouts and the last workspace
    void writeSettings(QSettings& settings);

signals:
    void switched(Workspaces::Workspace workspace);

private:
    void apply(Workspace workspace);
    void remember();
    QList<QDockWidget*> allDocks() const;

    QMainWindow* m_window;
    QWidget* m_centre;
    QActionGroup* m_group;
    std::array<QAction*, kCount> m_actions{};
    std::array<Definition, kCount> m_definitions;
    QHash<int, QByteArray> m_layouts;  // by workspace: the window's state when it was left
    Workspace m_current = Workspace::Label;
    bool m_projectOpen = false;
};

}  // namespace segstudio::ui::shell
