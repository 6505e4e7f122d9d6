#include "RunsTable.h"

#include <algorithm>

#include "common/BackgroundPool.h"
#include "RunInfoPanel.h"

#include "remote/RemoteRunRecord.h"
#include "run/FileError.h"
#include "run/RunLayout.h"

#include <QDateTime>
#include <QDir>
#include <QHeaderView>
#include <QtConcurrent>

namespace segstudio::ui::training {

RunsTable::RunsTable(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(ColumnCount);
    setHeaderLabels({tr("Run"), tr("State"), tr("Model"), tr("Devices"), tr("Best mIoU"), tr("Epochs"), tr("Time"), tr("Started"), tr("Where")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAllColumnsShowFocus(true);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    headerItem()->setToolTip(Name, tr("Tick runs to overlay their curves on the selected one's"));
    connect(this, &QTreeWidget::currentItemChanged, this, [this] { emit currentRunChanged(currentRun()); });
    connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem*, int column) {
        if (column == Name)
            emit comparisonChanged(comparedRuns());
    });
    connect(&m_summaries, &QFutureWatcher<Summaries>::finished, this, &RunsTable::showSummaries);
}

RunsTable::~RunsTable()
{
    m_summaries.disconnect(this);
    m_summaries.waitForFinished();
}

QStringList RunsTable::rowText(const run::RunProgress& progress)
{
    const auto& info = progress.runInfo();
    QStringList text(ColumnCount);
    QString state = QString::fromLatin1(run::toString(progress.state()));
    state[0] = state[0].toUpper();
    text[State] = progress.hasRunInfo() || progress.iteration() > 0 ? state : QString();
    text[Model] = QString::fromStdString(info.model);
    text[Devices] = info.worldSize > 1 ? QStringLiteral("%1 × %2").arg(QString::fromStdString(info.device)).arg(info.worldSize)
                                       : QString::fromStdString(info.device);
    if (progress.bestMeanIoU())
        text[Best] = QStringLiteral("%1 (%2)").arg(*progress.bestMeanIoU(), 0, 'f', 3).arg(progress.bestEpoch());
    if (info.epochs > 0)
        text[Epochs] = QStringLiteral("%1/%2").arg(std::min(progress.epochsDone(), progress.plannedEpochs())).arg(progress.plannedEpochs());
    if (progress.elapsedSeconds() > 0)
        text[Duration] = RunInfoPanel::duration(progress.elapsedSeconds());
    const QDateTime started = QDateTime::fromString(QString::fromStdString(progress.started()), Qt::ISODate);
    if (started.isValid())
        text[Started] = QLocale().toString(started.toLocalTime(), QLocale::ShortFormat);
    return text;
}

QTreeWidgetItem* RunsTable::addRow(const QString& dir, bool compared, const QString& name)
{
    auto* row = new QTreeWidgetItem(this, QStringList{name.isEmpty() ? QFileInfo(dir).fileName() : name});
    row->setData(Name, Qt::UserRole, dir);
    row->setFlags(row->flags() | Qt::ItemIsUserCheckable);
    row->setCheckState(Name, compared ? Qt::Checked : Qt::Unchecked);
    row->setText(Where, whereOf(dir));
    return row;
}

QString RunsTable::whereOf(const QString& dir)
{
    try {
        if (const auto record = remote::RemoteRunRecord::read(dir.toStdString()))
            return QString::fromStdString(record->target.describe());
    } catch (const run::FileError& error) {
        return tr("elsewhere (%1)").arg(QString::fromStdString(error.problem()));
    }
    return tr("this computer");
}

void RunsTable::setRunsFolder(const QString& folder)
{
    const QStringList compared = comparedRuns();
    if (folder != m_folder)
        m_external.clear();  // another project: its runs only
    m_folder = folder;
    {
        const QSignalBlocker blocker(this);
        clear();
        if (!folder.isEmpty()) {
            // Newest first: the run a user just started, or wants to compare, is at the top.
            const auto entries = QDir(folder).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
            for (const QFileInfo& entry : entries)
                addRow(entry.filePath(), compared.contains(entry.filePath()));
        }
        for (const QString& dir : m_external)
            addRow(dir, compared.contains(dir), externalName(dir))->setToolTip(Name, tr("Opened from %1").arg(dir));
        markModelRun();
    }
    if (compared != comparedRuns())
        emit comparisonChanged(comparedRuns());
    // Summaries on a worker: every metrics.jsonl read whole.
    QStringList dirs;
    for (const QString& name : runNames())
        dirs << runDirectory(name);
    m_summariesShown = false;
    m_summaries.setFuture(common::runInBackground([dirs] {
        Summaries summaries;
        for (const QString& dir : dirs) {
            summaries.append({QFileInfo(dir).fileName(), run::RunProgress::read(run::RunLayout(dir.toStdString()).metricsFile())});
        }
        return summaries;
    }));
}

void RunsTable::showSummaries()
{
    if (m_summariesShown)
        return;
    m_summariesShown = true;
    const QSignalBlocker blocker(this);  // the check states do not change
    for (const auto& [name, progress] : m_summaries.result())
        if (QTreeWidgetItem* row = item(name)) {
            const QStringList text = rowText(progress);
            for (int column = State; column < Where; ++column)
                if (row->text(column).isEmpty() || column != State)  // a live row may be newer
                    row->setText(column, text[column]);
        }
}

void RunsTable::waitForSummaries()
{
    m_summaries.waitForFinished();
    showSummaries();
}

void RunsTable::updateRun(const QString& name, const run::RunProgress& progress)
{
    QTreeWidgetItem* row = item(name);
    if (!row)
        return;
    const QSignalBlocker blocker(this);
    const QStringList text = rowText(progress);
    for (int column = State; column < Where; ++column)
        row->setText(column, text[column]);
}

QTreeWidgetItem* RunsTable::item(const QString& name) const
{
    const auto matches = findItems(name, Qt::MatchExactly, Name);
    return matches.isEmpty() ? nullptr : matches.first();
}

QStringList RunsTable::runNames() const
{
    QStringList names;
    for (int row = 0; row < topLevelItemCount(); ++row)
        names << topLevelItem(row)->text(Name);
    return names;
}

QString RunsTable::currentRun() const { return currentItem() ? currentItem()->text(Name) : QString(); }

bool RunsTable::setCurrentRun(const QString& name)
{
    QTreeWidgetItem* row = item(name);
    if (!row)
        return false;
    setCurrentItem(row);
    return true;
}

QStringList RunsTable::comparedRuns() const
{
    QStringList dirs;
    for (int row = 0; row < topLevelItemCount(); ++row)
        if (topLevelItem(row)->checkState(Name) == Qt::Checked)
            dirs << topLevelItem(row)->data(Name, Qt::UserRole).toString();
    return dirs;
}

QString RunsTable::runDirectory(const QString& name) const
{
    const QTreeWidgetItem* row = item(name);
    return row ? row->data(Name, Qt::UserRole).toString() : QString();
}

QString RunsTable::externalName(const QString& dir) const
{
    const QFileInfo folder(dir);
    const bool clash = !m_folder.isEmpty() && QFileInfo::exists(QDir(m_folder).filePath(folder.fileName()));
    return clash ? tr("%1 (%2)").arg(folder.fileName(), folder.dir().dirName()) : folder.fileName();
}

QString RunsTable::addExternalRun(const QString& dir)
{
    const QString folder = QFileInfo(dir).absoluteFilePath();
    if (!m_external.contains(folder)) {
        m_external << folder;
        setRunsFolder(m_folder);
    }
    return nameOf(folder);
}

QString RunsTable::nameOf(const QString& dir) const
{
    for (int row = 0; row < topLevelItemCount(); ++row)
        if (topLevelItem(row)->data(Name, Qt::UserRole).toString() == dir)
            return topLevelItem(row)->text(Name);
    return {};
}

void RunsTable::setModelRun(const QString& dir)
{
    m_modelRun = dir;
    const QSignalBlocker blocker(this);
    markModelRun();
}

void RunsTable::markModelRun()
{
    for (int row = 0; row < topLevelItemCount(); ++row) {
        QTreeWidgetItem* item = topLevelItem(row);
        const bool inUse = !m_modelRun.isEmpty() && item->data(Name, Qt::UserRole).toString() == m_modelRun;
        QFont font = item->font(Name);
        font.setBold(inUse);
        item->setFont(Name, font);
        item->setToolTip(State, inUse ? tr("Its model predicts and answers Smart Click") : QString());
    }
}

void RunsTable::setCompared(const QString& name, bool compared)
{
    if (QTreeWidgetItem* row = item(name))
        row->setCheckState(Name, compared ? Qt::Checked : Qt::Unchecked);
}

}  // namespace segstudio::ui::training
