#pragma once

#include "common/TrainerProcess.h"

#include <QDateTime>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include "run/MetricsReader.h"
#include "run/RunProgress.h"

#include <algorithm>
#include <functional>
#include <memory>

class QTimer;

namespace segstudio::data {
inline namespace project { class Project; }
}

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::training {

// "Predict as I label" (issue 23): after every N newly labelled training images, a low-priority
// fine-tune of the selected run on the project's labelled training images, so the editor's
// predictions (and the smart click under them) improve while the user labels.
//
// The fine-tune is segstudio-train itself, in two steps, niced to the lowest priority: pack the
// train split's labelled images at the base run's size, then train from the base run's
// checkpoint (--init-from) with its own config, a fifth of its learning rate and a time budget
// (two minutes) that ends with one validation on the base run's validation pack, its progress
// read from its run folder and said in the status. It trains into a hidden staging folder and
// replaces runs/<base>-live only when it succeeded and did not validate worse than the model it
// started from (ModelComparison; without validation images it is kept unvalidated), so a
// failed, interrupted or weaker fine-tune never replaces the live model. Turned off by the
// user (removeLiveRun), the live run, its staging folder and record are removed. A record beside it (runs/.<base>-live.json) keeps which images the model
// has learned from and when, so the count of "new" images survives a restart.
//
// Requirements: GUI thread; the project outlives the tuner or is reset first (setProject(nullptr)).
// Guarantees: never while the user's own training runs (it waits, and a fine-tune under way is
//   dropped when the user starts one); never blocks; one fine-tune at a time; learned() comes once
//   per fine-tune that replaced the live run, with its folder and its validation's verdict.
class LiveFineTuner : public QObject {
    Q_OBJECT

public:
    enum class State { Off, NoModel, Counting, Waiting, Packing, Learning, Failed };

    explicit LiveFineTuner(QObject* parent = nullptr);
    ~LiveFineTuner() override;

    void setTrainer(const QString& program) { m_process->setProgram(program); }
    void setProject(const data::Project* project);  // its file must be saved before a fine-tune
    // The open project as a document (nullptr: none): its project, and its label status, split
    // and image changes, which may make a fine-tune due.
    void setDocument(const document::ProjectDocument* document);
    // The run the user selected: the live model starts from its best checkpoint (last.pt when it
    // never validated). When it is itself a live run, the fine-tune continues it.
    void setBaseRun(const QString& runDir);
    void setEnabled(bool enabled);
    // The user turned it off: the live run of the model in use goes (when it lies in runsFolder,
    // the project's runs/), with its record and staging folder; liveRunRemoved() says so.
    void removeLiveRun(const QString& runsFolder);
    bool isEnabled() const { return m_enabled; }
    void setInterval(int images);  // newly labelled training images between fine-tunes, >= 1
    int interval() const { return m_interval; }
    // A fine-tune trains for this long (its time budget, whatever the project's size and the
    // machine's load): on a loaded two-core machine an epoch count took 18 minutes (issue 47.11).
    void setBudgetSeconds(int seconds) { m_budgetSeconds = std::max(1, seconds); }
    int budgetSeconds() const { return m_budgetSeconds; }
    // Called before packing (the main window saves the labels); false postpones the fine-tune.
    void setBeforeLearning(std::function<bool()> saveLabels) { m_beforeLearning = std::move(saveLabels); }
    // Whether the user's own training runs: the tuner waits for it to end.
    void setUserTrainingBusy(std::function<bool()> busy) { m_userTrainingBusy = std::move(busy); }

    // A label status or split changed: counts again and starts a fine-tune when one is due.
    void labelsChanged();
    // The user started a training: a fine-tune under way is dropped (it is only a convenience).
    void userTrainingStarted();

    State state() const { return m_state; }
    QString statusText() const;
    // A few words while it works (packing, learning and how far), for the status bar of every
    // workspace; empty while it only counts, is off or waits.
    QString activityText() const;
    int newlyLabelled() const;  // labelled training images the live model has not learned from
    QString liveRunDirectory() const;  // empty without a base run
    QDateTime learnedAt() const { return m_learnedAt; }

    // Pure, for tests: the live run's name for a base run, and the epochs of one fine-tune.
    static QString liveRunName(const QString& baseRunName);
    static QString baseRunDirectoryOf(const QString& liveRunDir);  // runs/<base>-live -> runs/<base>

signals:
    // validatedBetter: it scored higher than the model it started from on the same validation
    // images; verdict says so in one line (or why there was nothing to compare).
    void learned(const QString& liveRunDir, bool validatedBetter, const QString& verdict);
    // Turned off: the live run (its model) was removed; baseRunDir is the run it learned from.
    void liveRunRemoved(const QString& liveRunDir, const QString& baseRunDir);
    void stateChanged();
    void output(const QString& text);

private:
    enum class Step { Idle, Pack, Train };

    QSet<QString> labelledTrainingImages() const;
    QSet<QString> packedTrainingImages() const;  // what `pack` packs: in progress included
    // The paths of a base run's fine-tunes. A step uses those of the base it started from
    // (m_stepBase), whatever run is selected while it runs (issue 47.2).
    static QString liveRunDirectoryOf(const QString& baseRun);
    static QString recordFileOf(const QString& baseRun);
    static QString stagingDirectoryOf(const QString& baseRun);
    static QString checkpointOf(const QString& baseRun);
    QString baseCheckpoint() const { return checkpointOf(m_baseRun); }
    QString recordFile() const { return recordFileOf(m_baseRun); }
    void followBaseRun();  // after a step: the record of the run selected meanwhile
    void readRecord();
    void writeRecord(const QSet<QString>& images, const QDateTime& when) const;
    void startLearning();
    void startTraining();
    void startStep(const QStringList& arguments);
    void stepFinished(const common::TrainerProcess::Exit& exit);
    bool replaceLiveRun();
    void finishStep(const QString& verdict);
    void setState(State state);
    void fail(const QString& reason);
    void stopProcess();
    void updateState();
    void readProgress();
    QString progressText() const;  // "45 s of 2 min", or empty before the first step

    const data::Project* m_project = nullptr;
    const document::ProjectDocument* m_document = nullptr;
    QString m_baseRun;
    QString m_stepBase;  // the base run of the step under way (pack, then train)
    bool m_enabled = false;
    int m_interval = 10;
    int m_budgetSeconds = 120;
    QTimer* m_progressTimer;                       // while it learns: reads the fine-tune's run
    std::unique_ptr<run::MetricsReader> m_metrics;  // the staging run's metrics.jsonl
    run::RunProgress m_progress;                    // how far the fine-tune is
    std::function<bool()> m_beforeLearning;
    std::function<bool()> m_userTrainingBusy;
    common::TrainerProcess* m_process;
    Step m_step = Step::Idle;
    State m_state = State::Off;
    QSet<QString> m_learnedFrom;  // the images of the last fine-tune (or the baseline when enabled)
    QSet<QString> m_learning;     // the images of the fine-tune under way
    QDateTime m_learnedAt;        // invalid: the live model has not learned yet
    int m_failedAt = -1;          // newly labelled count at the last failure: retry only past it
    QString m_failure;
    QString m_verdict;  // of the last fine-tune's validation, for the status line
};

}  // namespace segstudio::ui::training
