#pragma once

#include "run/RunProgress.h"

#include <QFutureWatcher>
#include <QTreeWidget>

namespace segstudio::ui::training {

// The runs of a project as a table: state, model, devices, best validation mIoU (and its epoch),
// epochs done of total, training time and start, newest first. Each run's box ticks it for
// comparison with the selected one. Summaries are read on a worker (a project may hold many
// runs, each metrics.jsonl large); the selected run's row follows it live (updateRun()). A run
// folder opened from elsewhere (Open run…) is listed too, below the project's, until the project
// changes; the run whose model is in use is shown in bold.
// Requirements: GUI thread.
class RunsTable : public QTreeWidget {
    Q_OBJECT

public:
    // Where: this computer, or the machine or cluster the run trains on (its remote.json).
    enum Column { Name, State, Model, Devices, Best, Epochs, Duration, Started, Where, ColumnCount };

    explicit RunsTable(QWidget* parent = nullptr);
    ~RunsTable() override;

    // Lists the run folders of folder (empty: none), keeping the ticks of runs still there.
    void setRunsFolder(const QString& folder);
    QString runsFolder() const { return m_folder; }
    QStringList runNames() const;
    QString currentRun() const;
    bool setCurrentRun(const QString& name);  // false when there is no such run
    QStringList comparedRuns() const;         // the ticked ones, as folders
    QString runDirectory(const QString& name) const;  // the row's folder, empty when there is none
    // A run folder outside the project's runs/ (kept until setRunsFolder() gets another folder);
    // returns the name it is listed under: its folder's, or "name (parent)" when a run of the
    // project has that name.
    QString addExternalRun(const QString& dir);
    QString nameOf(const QString& dir) const;  // the row of that folder's name; empty when not listed
    void setModelRun(const QString& dir);  // shown in bold: its model predicts
    void setCompared(const QString& name, bool compared);
    void updateRun(const QString& name, const run::RunProgress& progress);
    void waitForSummaries();  // tests

    static QStringList rowText(const run::RunProgress& progress);
    static QString whereOf(const QString& dir);

signals:
    void currentRunChanged(const QString& name);  // empty = none
    void comparisonChanged(const QStringList& runDirs);

private:
    using Summaries = QList<QPair<QString, run::RunProgress>>;
    QTreeWidgetItem* item(const QString& name) const;
    QTreeWidgetItem* addRow(const QString& dir, bool compared, const QString& name = QString());
    QString externalName(const QString& dir) const;
    void showSummaries();
    void markModelRun();

    QString m_folder;
    QStringList m_external;  // folders opened from elsewhere
    QString m_modelRun;
    QFutureWatcher<Summaries> m_summaries;
    bool m_summariesShown = true;
};

}  // namespace segstudio::ui::training
