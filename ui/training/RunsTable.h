#pragma once

#include "run/RunProgress.h"

#include <QFutureWatcher>
#include <QTreeWidget>

namespace segstudio::ui::training {

// The runs of a project as a table: state, model, devices, best validation mIoU (and its epoch),
// epochs done of total, training time and start, newest first. Each run's box ticks it for
// comparison with the selected one. Summaries are read on a worker (a project may hold many
// runs, each metrics.jsonl large); the selected run's row follows it live (updateRun()).
// Requirements: GUI thread.
class RunsTable : public QTreeWidget {
    Q_OBJECT

public:
    enum Column { Name, State, Model, Devices, Best, Epochs, Duration, Started, ColumnCount };

    explicit RunsTable(QWidget* parent = nullptr);
    ~RunsTable() override;

    // Lists the run folders of folder (empty: none), keeping the ticks of runs still there.
    void setRunsFolder(const QString& folder);
    QString runsFolder() const { return m_folder; }
    QStringList runNames() const;
    QString currentRun() const;
    bool setCurrentRun(const QString& name);  // false when there is no such run
    QStringList comparedRuns() const;         // the ticked ones, as folders
    void setCompared(const QString& name, bool compared);
    void updateRun(const QString& name, const run::RunProgress& progress);
    void waitForSummaries();  // tests

    static QStringList rowText(const run::RunProgress& progress);

signals:
    void currentRunChanged(const QString& name);  // empty = none
    void comparisonChanged(const QStringList& runDirs);

private:
    using Summaries = QList<QPair<QString, run::RunProgress>>;
    QTreeWidgetItem* item(const QString& name) const;
    void showSummaries();

    QString m_folder;
    QFutureWatcher<Summaries> m_summaries;
    bool m_summariesShown = true;
};

}  // namespace segstudio::ui::training
