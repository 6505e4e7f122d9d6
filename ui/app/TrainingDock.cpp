#include "TrainingDock.h"

#include "MetricsPlot.h"
#include "ProcessLog.h"
#include "RunWatcher.h"
#include "TrainDialog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace segstudio::ui {

namespace {
constexpr qint64 kLogTailBytes = 64 * 1024;
constexpr int kLogMaxLines = 5000;
}  // namespace

TrainingDock::TrainingDock(QWidget* parent)
    : QWidget(parent), m_runs(new QListWidget(this)), m_trainButton(new QPushButton(tr("&Train…"), this)),
      m_stopButton(new QPushButton(tr("&Stop"), this)), m_status(new QLabel(this)), m_plot(new MetricsPlot(this)),
      m_log(new QPlainTextEdit(this)), m_watcher(new RunWatcher(this)),
      m_runsWatcher(new QFileSystemWatcher(this)), m_launcher(new TrainingLauncher(this))
{
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kLogMaxLines);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_status->setWordWrap(true);
    m_trainButton->setToolTip(tr("Pack the train and val splits and train a model on them (segstudio-train)"));
    m_stopButton->setToolTip(tr("Ask the trainer to save a checkpoint and stop"));

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(new QLabel(tr("Runs:"), side));
    sideLayout->addWidget(m_runs, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_trainButton);
    buttons->addWidget(m_stopButton);
    sideLayout->addLayout(buttons);
    sideLayout->addWidget(m_status);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(side);
    splitter->addWidget(m_plot);
    splitter->addWidget(m_log);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    splitter->setSizes({180, 520, 360});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(splitter);

    connect(m_trainButton, &QPushButton::clicked, this, &TrainingDock::trainInteractively);
    connect(m_stopButton, &QPushButton::clicked, this, &TrainingDock::stopTraining);
    connect(m_runs, &QListWidget::currentTextChanged, this, [this](const QString& name) {
        showRun(name.isEmpty() ? QString() : QDir(runsFolder()).filePath(name));
    });
    connect(m_runsWatcher, &QFileSystemWatcher::directoryChanged, this, &TrainingDock::refreshRuns);
    connect(m_watcher, &RunWatcher::reset, m_plot, &MetricsPlot::clearPoints);
    connect(m_watcher, &RunWatcher::pointsAdded, m_plot, &MetricsPlot::addPoints);
    connect(m_watcher, &RunWatcher::error, this, [this](const QString& message) { m_status->setText(message); });
    connect(m_launcher, &TrainingLauncher::output, this, &TrainingDock::appendLog);
    connect(m_launcher, &TrainingLauncher::finished, this, [this](bool, const QString& message) {
        m_status->setText(message);
        appendLog(message + QLatin1Char('\n'));
        refreshRuns();
        updateButtons();
    });
    setProjectFile({});
    m_launcher->refreshModels();  // in the background; the dialog shows what has come by then
}

TrainingDock::~TrainingDock() = default;

void TrainingDock::setProjectFile(const QString& projectFile)
{
    m_projectFile = projectFile;
    m_status->clear();
    // Nothing of the last project stays in view: plot (and its ranges) and log start empty.
    if (!m_launcher->isBusy())
        showRun({});
    refreshRuns();
    // A project opens on its newest run, so its curves and predictions are there after a restart.
    if (!m_runs->currentItem() && m_runs->count() > 0)
        m_runs->setCurrentRow(0);
    updateButtons();
}

QString TrainingDock::runsFolder() const
{
    if (m_projectFile.isEmpty())
        return {};
    return QFileInfo(m_projectFile).dir().filePath(QStringLiteral("runs"));
}

QStringList TrainingDock::runNames() const
{
    QStringList names;
    for (int row = 0; row < m_runs->count(); ++row)
        names << m_runs->item(row)->text();
    return names;
}

void TrainingDock::refreshRuns()
{
    const QString current = m_runs->currentItem() ? m_runs->currentItem()->text() : QString();
    if (!m_runsWatcher->directories().isEmpty())
        m_runsWatcher->removePaths(m_runsWatcher->directories());
    if (!m_projectFile.isEmpty()) {
        // Until runs/ exists, watch the project folder for it to appear.
        const QString watched = QDir(runsFolder()).exists() ? runsFolder() : QFileInfo(m_projectFile).path();
        if (QDir(watched).exists())
            m_runsWatcher->addPath(watched);
    }
    const QSignalBlocker blocker(m_runs);
    m_runs->clear();
    if (!runsFolder().isEmpty()) {
        // Newest first: the run a user just started, or wants to compare, is at the top.
        const auto entries = QDir(runsFolder()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
        for (const QFileInfo& entry : entries)
            m_runs->addItem(entry.fileName());
    }
    // Keep the selected run when it is still there; the watcher follows the selection (the
    // signals are blocked here, and another project may have a run of the same name).
    QString expected;
    const auto matches = m_runs->findItems(current, Qt::MatchExactly);
    if (!current.isEmpty() && !matches.isEmpty()) {
        m_runs->setCurrentItem(matches.first());
        expected = QDir(runsFolder()).filePath(current);
    }
    if (m_watcher->runDirectory() != expected)
        showRun(expected);
}

bool TrainingDock::selectRun(const QString& name)
{
    const auto matches = m_runs->findItems(name, Qt::MatchExactly);
    if (matches.isEmpty())
        return false;
    if (m_runs->currentItem() == matches.first())
        showRun(QDir(runsFolder()).filePath(name));  // re-read from the start
    else
        m_runs->setCurrentItem(matches.first());
    return true;
}

QString TrainingDock::currentRunDirectory() const { return m_watcher->runDirectory(); }

void TrainingDock::showRun(const QString& dir)
{
    m_watcher->setRunDirectory(dir);
    emit currentRunChanged(dir);
    // The trainer's own output stays while it runs; an older run shows its log.txt.
    if (!m_launcher->isBusy())
        showLogFile(dir);
}

void TrainingDock::showLogFile(const QString& dir)
{
    m_log->clear();
    if (dir.isEmpty())
        return;
    QFile file(QDir(dir).filePath(QStringLiteral("log.txt")));
    if (!file.open(QIODevice::ReadOnly))
        return;
    if (file.size() > kLogTailBytes)
        file.seek(file.size() - kLogTailBytes);
    appendLog(QString::fromUtf8(file.readAll()));
}

void TrainingDock::appendLog(const QString& text) { appendProcessOutput(m_log, text); }

void TrainingDock::trainInteractively()
{
    const QString name = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    TrainDialog dialog(name, m_lastSettings, runsFolder(), m_launcher->models(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_lastSettings = dialog.settings();
    if (!startTraining(dialog.runName(), m_lastSettings))
        QMessageBox::warning(this, tr("Train"), m_status->text());
}

bool TrainingDock::startTraining(const QString& name, const TrainingLauncher::Settings& settings)
{
    if (m_projectFile.isEmpty() || m_launcher->isBusy())
        return false;
    const QString dir = QDir(runsFolder()).filePath(name);
    m_log->clear();
    if (!m_launcher->start(m_projectFile, dir, settings))
        return false;
    m_status->setText(tr("Training %1…").arg(name));
    refreshRuns();
    selectRun(name);
    updateButtons();
    return true;
}

void TrainingDock::stopTraining()
{
    if (!m_launcher->isBusy())
        return;
    m_status->setText(tr("Stopping…"));
    m_launcher->stop();
}

bool TrainingDock::confirmStop(QWidget* parent)
{
    if (!m_launcher->isBusy())
        return true;
    const auto answer = QMessageBox::question(
        parent, tr("Training"),
        tr("A training is running in %1.\n\nStop it? It saves a checkpoint; continue it later with "
           "segstudio-train train --resume.")
            .arg(m_launcher->runDirectory()),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return false;
    stopTraining();
    return true;
}

void TrainingDock::updateButtons()
{
    const bool busy = m_launcher->isBusy();
    const bool haveTrainer = !m_launcher->trainer().isEmpty();
    m_trainButton->setEnabled(!m_projectFile.isEmpty() && !busy && haveTrainer);
    if (!haveTrainer)
        m_trainButton->setToolTip(tr("segstudio-train was not found next to the application or on PATH"));
    m_stopButton->setEnabled(busy);
    m_runs->setEnabled(!m_projectFile.isEmpty());
}

}  // namespace segstudio::ui
