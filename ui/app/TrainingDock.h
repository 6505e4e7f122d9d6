#pragma once

#include "TrainingLauncher.h"

#include <QWidget>

class QFileSystemWatcher;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace segstudio::ui {

class MetricsPlot;
class RunWatcher;

// The "Training" panel: the runs of the open project (folders under <project folder>/runs/),
// Train… and Stop, live curves of the selected run and the trainer's output. Selecting any run,
// also one started elsewhere, shows its curves; they grow as its metrics.jsonl grows. The list
// follows runs/ as runs appear or go.
// Requirements: GUI thread. Training runs in segstudio-train (TrainingLauncher); this panel only
//   reads the run directory, so it never blocks on the process.
class TrainingDock : public QWidget {
    Q_OBJECT

public:
    explicit TrainingDock(QWidget* parent = nullptr);
    ~TrainingDock() override;

    // The open project's file; empty = none (the panel is then disabled).
    void setProjectFile(const QString& projectFile);
    QString runsFolder() const;  // <project folder>/runs, empty without a project
    QStringList runNames() const;
    void refreshRuns();
    bool selectRun(const QString& name);  // false when there is no such run
    QString currentRunDirectory() const;

    // Starts pack + train into runs/<name> without asking (Train… asks first, then calls this).
    bool startTraining(const QString& name, const TrainingLauncher::Settings& settings);
    void stopTraining();
    // Before the window closes: while a training runs, asks whether to stop it (it saves a
    // checkpoint; the run can be resumed) and stops it on yes. False = the user wants to stay.
    bool confirmStop(QWidget* parent);

    MetricsPlot* plot() const { return m_plot; }
    RunWatcher* watcher() const { return m_watcher; }
    TrainingLauncher* launcher() const { return m_launcher; }
    QPlainTextEdit* logView() const { return m_log; }
    QFileSystemWatcher* runsWatcher() const { return m_runsWatcher; }

signals:
    void currentRunChanged(const QString& runDir);  // empty = none

private:
    void trainInteractively();
    void showRun(const QString& dir);
    void appendLog(const QString& text);
    void showLogFile(const QString& dir);
    void updateButtons();

    QString m_projectFile;
    QListWidget* m_runs;
    QPushButton* m_trainButton;
    QPushButton* m_stopButton;
    QLabel* m_status;
    MetricsPlot* m_plot;
    QPlainTextEdit* m_log;
    RunWatcher* m_watcher;
    QFileSystemWatcher* m_runsWatcher;  // runs/ (and the project folder until runs/ exists)
    TrainingLauncher* m_launcher;
    TrainingLauncher::Settings m_lastSettings;
};

}  // namespace segstudio::ui
