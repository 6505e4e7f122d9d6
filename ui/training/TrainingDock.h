#pragma once

#include "TrainingLauncher.h"

#include "run/RunProgress.h"

#include <QHash>
#include <QSet>
#include <QSize>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>

class QFileSystemWatcher;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::training {

class LiveFineTuner;
class ModelChoice;
class RunInfoPanel;
class RunsTable;
class RunWatcher;
class TrainingMonitor;

// The "Training" panel: the runs of the open project (folders under <project folder>/runs/) as a
// table (RunsTable; ticked runs are overlaid for comparison), the selected run's live monitor
// (curves, information panel with progress and ETA) and the trainer's output,
// and the controls: Train…, Stop, Stop after this epoch, Resume…, Train again…. Selecting any
// run, also one started elsewhere or still written by another machine, shows it; it grows as its
// metrics.jsonl grows. The list follows runs/ as runs appear or go.
// The buttons sit in a block of their own above the list, so a status of more lines, the packing
// bar or the information panel never moves them.
// Other rooms ask it through its signals and slots only (PanelLinks); it hands out none of its
// parts. Tests and tools find them by object name (QObject::findChild): the widgets runsTable,
// trainButton, trainAgainButton, stopButton, stopAfterEpochButton, resumeButton, openRunButton,
// runInfo, trainingStatus, packingBar, trainingMonitor (with metricsPlot in it) and trainingLog,
// and the objects trainingLauncher, runWatcher, runsWatcher and liveFineTuner.
// Requirements: GUI thread. Training runs in segstudio-train (TrainingLauncher); this panel only
//   reads the run folder (on a worker, RunWatcher), so it never blocks on the process or the file.
class TrainingDock : public QWidget {
    Q_OBJECT

public:
    explicit TrainingDock(QWidget* parent = nullptr);
    ~TrainingDock() override;

    // What the Train button's dialog proposes: the settings last accepted for this project (kept
    // across sessions, TrainSettingsStore), at first the defaults that learn for 30 minutes.
    const TrainingLauncher::Settings& proposedSettings() const { return m_lastSettings; }
    // The segstudio-train to run (default: the one next to the application, else on PATH).
    void setTrainer(const QString& program);
    bool isBusy() const;  // this panel's trainer (or its packing) runs

    // The open project's file; empty = none (the panel is then disabled).
    void setDocument(const document::ProjectDocument* document);  // nullptr: no project
    void setProjectFile(const QString& projectFile);
    QString runsFolder() const;  // <project folder>/runs, empty without a project
    QStringList runNames() const;
    void refreshRuns();
    bool selectRun(const QString& name);  // false when there is no such run
    // Any run folder, also outside the project (a shared folder another machine writes to).
    bool openRunFolder(const QString& dir);
    QString currentRunDirectory() const;  // the run in view (its curves, log, buttons)
    // The run whose model predicts and answers Smart Click (ModelChoice): the user's choice, or a
    // run trained here that validated better on the same images; never silently a weaker one.
    QString modelRunDirectory() const;
    void useViewedRunForPredictions();  // the Use for Predictions button

    // Called before the project is packed for a new run, so the run trains on the labels as they
    // are on screen (the main window saves them); false cancels the start.
    void setBeforeTraining(std::function<bool()> saveLabels) { m_beforeTraining = std::move(saveLabels); }
    // Called before Train… shows its dialog: the main window offers a split when no image is in
    // the training split (a run would fail with nothing to learn from).
    void setBeforeTrainDialog(std::function<void()> offerSplit) { m_beforeTrainDialog = std::move(offerSplit); }
    // Starts pack + train into runs/<name> without asking (Train… asks first, then calls this).
    bool startTraining(const QString& name, const TrainingLauncher::Settings& settings);
    // Continues the selected run where it stopped; epochs > 0 (minutes > 0: a time-budgeted run)
    // changes its total.
    bool resumeTraining(int epochs = 0, int minutes = 0);  // TrainerArguments::resume
    void stopTraining();
    bool stopAfterEpoch();
    // Before the window closes: while a training runs, asks whether to stop it (it saves a
    // checkpoint; the run can be resumed) and stops it on yes. False = the user wants to stay.
    // Closing the window while a run trains: keep it training in the background (the default),
    // or stop it and wait for its checkpoint; false when the user cancels the close.
    bool confirmClose(QWidget* parent);

    const run::RunProgress& progress() const { return m_progress; }  // of the run in view

    // "Predict as I label" (LiveFineTuner, docs/LABELING.md): the model in use learns from the
    // labels as they come, at low priority, never beside this panel's own training, and is
    // validated on the base run's validation images; its run (runs/<run>-live) becomes the model
    // in use when it validated better there. Turned off, the live run is removed.
    // Called before a fine-tune packs the labels (the window saves them); false postpones it.
    void setBeforeLearning(std::function<bool()> saveLabels);
    QString liveFineTuneStatus() const;  // one line: off, counting, learning, learned at…
    QString liveFineTuneActivity() const;  // a few words while it packs or learns, else empty

public slots:
    // The window goes without asking (a logout, SIGTERM): a training of this panel goes on in the
    // background, and the panel of the next window finds it again.
    void keepTrainingInBackground();
    // Predict as I label on or off, and after how many newly labelled training images it learns.
    void setLearnAsILabel(bool enabled, int interval);

signals:
    void currentRunChanged(const QString& runDir);  // the run in view; empty = none
    void modelRunChanged(const QString& runDir);    // the run whose model predicts; empty = none
    void modelReloaded();  // the model in use got new weights in its folder (a fine-tune of the live run)
    void modelMessage(const QString& text);  // why the model in use changed, or stayed
    void progressChanged();  // the shown run's progress() moved on (records came, it ended, another run)
    // This panel's own trainer: started (Train…, Train again…, Resume…) into runDir, then ended,
    // once per start; a start refused at once (no segstudio-train) says only trainingFinished.
    void trainingStarted(const QString& runDir);
    void trainingFinished(bool ok, const QString& message);
    void liveFineTuneStatusChanged(const QString& status);

private:
    // A run this panel started on another machine, not ended when the project was last closed:
    // followed again (mirrored, Stop), as when it was started (issue 64.2).
    void followRunElsewhere();
    bool confirmJobScript(const QString& name, const TrainingLauncher::Settings& settings);
    void nameParts();
    void configureParts();
    void layOut();
    void connectButtons();
    void connectRunViews();
    void connectLauncher();
    void connectLiveFineTuner();
    void liveModelReplaced(const QString& liveRunDir, bool validatedBetter, const QString& verdict);
    void connectModelChoice();
    bool stopAndWait(QWidget* parent);
    bool stopBackgroundTrainer(int signal);
    void trainInteractively(const TrainingLauncher::Settings& proposed);
    void resumeInteractively();
    void resumeBudgetedRunInteractively();
    void showRun(const QString& dir);
    void showClassNames(const QString& dir);
    void addRecords(const std::vector<run::MetricsRecord>& records);
    void updateInfo();
    void appendLog(const QString& text);
    void showLogFile(const QString& dir);
    void updateButtons();
    void compareRuns(const QStringList& runDirs);

    QString m_projectFile;
    QStringList m_projectClassNames;
    QSize m_defaultPackSize;  // the open project's images' size for packing (empty: the settings')
    int m_comparisonRequest = 0;
    RunsTable* m_runs;
    QPushButton* m_trainButton;
    QPushButton* m_stopButton;
    QPushButton* m_stopAfterEpochButton;
    QPushButton* m_resumeButton;
    QPushButton* m_againButton;
    QPushButton* m_openButton;
    QPushButton* m_useModelButton;
    RunInfoPanel* m_info;
    QLabel* m_status;
    QProgressBar* m_packing;  // visible while the splits are packed
    TrainingMonitor* m_monitor;
    QPlainTextEdit* m_log;
    RunWatcher* m_watcher;
    run::RunProgress m_progress;
    QFileSystemWatcher* m_runsWatcher;  // runs/ (and the project folder until runs/ exists)
    TrainingLauncher* m_launcher;
    LiveFineTuner* m_fineTuner;
    ModelChoice* m_model;
    QString m_readOnlyReason;  // why the open project is read-only here; empty: writable
    QHash<QPushButton*, QString> m_toolTips;  // the buttons' own, shown again once writable
    bool m_viewOnly = false;  // a selection made to show a run (a training started), not to choose its model
    bool m_ownTrainingRuns = false;  // between trainingStarted and trainingFinished
    TrainingLauncher::Settings m_lastSettings;
    std::function<bool()> m_beforeTraining;
    std::function<void()> m_beforeTrainDialog;
    bool m_stopAfterEpochAsked = false;
    QHash<qint64, QSet<int>> m_backgroundSignals;
    std::optional<qint64> m_shownBackground;  // the background trainer the status line names
    QTimer m_backgroundPoll;  // re-checks the buttons while a background trainer is in view  // what each background trainer was sent (once each)
    // What the launcher said when its process ended, for the run it ran: shown while the file
    // does not say the run ended (a trainer that failed before writing, or was killed).
    QString m_outcomeRun;
    QString m_outcomeState;
    QString m_outcomeReason;
};

}  // namespace segstudio::ui::training
