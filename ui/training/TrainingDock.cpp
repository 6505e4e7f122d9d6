#include "TrainingDock.h"

#include "LiveFineTuner.h"
#include "ModelChoice.h"
#include "ModelComparison.h"

#include "data/project/DefaultPackSize.h"
#include "document/ProjectDocument.h"

#include "MetricsPlot.h"
#include "RunInfoPanel.h"
#include "common/RunLayoutOf.h"
#include "RunWatcher.h"
#include "RunsTable.h"
#include "TrainDialog.h"
#include "TrainSettingsStore.h"
#include "TrainingMonitor.h"
#include "common/BackgroundPool.h"
#include "common/ProcessLog.h"

#include "pack/PackError.h"
#include "pack/PackReader.h"
#include "run/RunConfigFile.h"
#include "remote/RemoteRunRecord.h"
#include "run/RunLayout.h"
#include "run/RunProgress.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFontDatabase>
#include <QGridLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QEventLoop>
#include <QProgressDialog>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>
#include <csignal>
#include <utility>

namespace segstudio::ui::training {

namespace {
constexpr qint64 kLogTailBytes = 64 * 1024;
constexpr int kLogMaxLines = 5000;
}  // namespace

TrainingDock::TrainingDock(QWidget* parent)
    : QWidget(parent), m_runs(new RunsTable(this)), m_trainButton(new QPushButton(tr("&Train…"), this)),
      m_stopButton(new QPushButton(tr("&Stop"), this)), m_stopAfterEpochButton(new QPushButton(tr("Stop after &epoch"), this)),
      m_resumeButton(new QPushButton(tr("Res&ume…"), this)), m_againButton(new QPushButton(tr("Train &again…"), this)),
      m_openButton(new QPushButton(tr("&Open run…"), this)),
      m_useModelButton(new QPushButton(tr("Use for &Predictions"), this)),
      m_info(new RunInfoPanel(this)), m_status(new QLabel(this)), m_packing(new QProgressBar(this)), m_monitor(new TrainingMonitor(this)),
      m_log(new QPlainTextEdit(this)), m_watcher(new RunWatcher(this)), m_runsWatcher(new QFileSystemWatcher(this)),
      m_launcher(new TrainingLauncher(this)), m_fineTuner(new LiveFineTuner(this)), m_model(new ModelChoice(this))
{
    m_lastSettings = TrainDialog::presetSettings(TrainDialog::EngineDefaults);  // "Train for 30 minutes"
    nameParts();
    configureParts();
    layOut();
    connectButtons();
    connectRunViews();
    connectLauncher();
    connectLiveFineTuner();
    connectModelChoice();
    setProjectFile({});
    m_launcher->refreshModels();  // in the background; the dialog shows what has come by then
}


// Stable names: tests and tools find the parts by them (the panel hands none out).
void TrainingDock::nameParts()
{
    m_runs->setObjectName(QStringLiteral("runsTable"));
    m_trainButton->setObjectName(QStringLiteral("trainButton"));
    m_stopButton->setObjectName(QStringLiteral("stopButton"));
    m_stopAfterEpochButton->setObjectName(QStringLiteral("stopAfterEpochButton"));
    m_resumeButton->setObjectName(QStringLiteral("resumeButton"));
    m_againButton->setObjectName(QStringLiteral("trainAgainButton"));
    m_openButton->setObjectName(QStringLiteral("openRunButton"));
    m_useModelButton->setObjectName(QStringLiteral("useModelButton"));
    m_model->setObjectName(QStringLiteral("modelChoice"));
    m_info->setObjectName(QStringLiteral("runInfo"));
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_packing->setObjectName(QStringLiteral("packingBar"));
    m_monitor->setObjectName(QStringLiteral("trainingMonitor"));
    m_log->setObjectName(QStringLiteral("trainingLog"));
    m_watcher->setObjectName(QStringLiteral("runWatcher"));
    m_runsWatcher->setObjectName(QStringLiteral("runsWatcher"));
    m_launcher->setObjectName(QStringLiteral("trainingLauncher"));
}

void TrainingDock::configureParts()
{
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kLogMaxLines);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_packing->setVisible(false);
    m_trainButton->setToolTip(tr("Pack the train and val splits and train a model on them (segstudio-train)"));
    m_stopButton->setToolTip(tr("Ask the trainer to save a checkpoint and stop now"));
    m_stopAfterEpochButton->setToolTip(tr("Finish the current epoch and its validation, save a checkpoint and stop"));
    m_resumeButton->setToolTip(tr("Continue the selected run where it stopped, optionally for more epochs (or minutes)"));
    m_againButton->setToolTip(tr("Train a new run with the selected run's settings on the current labels"));
    m_openButton->setToolTip(tr("Watch any run folder, also one another machine is still writing (a shared folder)"));
    m_useModelButton->setToolTip(tr("Predict and Smart Click with the selected run's model (the run in bold is the one in use)"));
    for (QPushButton* button : {m_trainButton, m_againButton, m_resumeButton})
        m_toolTips.insert(button, button->toolTip());
}

void TrainingDock::layOut()
{
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    // The buttons first: what changes height below them (the status's lines, the packing bar,
    // the information) only shortens the list, so a click aimed at Stop lands on Stop.
    auto* buttons = new QGridLayout;
    buttons->addWidget(m_trainButton, 0, 0);
    buttons->addWidget(m_againButton, 0, 1);
    buttons->addWidget(m_stopButton, 1, 0);
    buttons->addWidget(m_stopAfterEpochButton, 1, 1);
    buttons->addWidget(m_resumeButton, 2, 0);
    buttons->addWidget(m_openButton, 2, 1);
    buttons->addWidget(m_useModelButton, 3, 0, 1, 2);
    sideLayout->addLayout(buttons);
    sideLayout->addWidget(new QLabel(tr("Runs:"), side));
    sideLayout->addWidget(m_runs, 1);
    sideLayout->addWidget(m_info);
    sideLayout->addWidget(m_status);
    sideLayout->addWidget(m_packing);

    // The column scrolls rather than holding the dock (and the window's canvas) to its full height.
    auto* sideScroll = new QScrollArea(this);
    sideScroll->setWidget(side);
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sideScroll->setMinimumWidth(side->minimumSizeHint().width() + sideScroll->verticalScrollBar()->sizeHint().width());
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(sideScroll);
    splitter->addWidget(m_monitor);
    splitter->addWidget(m_log);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 1);
    splitter->setSizes({330, 640, 280});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(splitter);
}

void TrainingDock::connectButtons()
{
    connect(m_trainButton, &QPushButton::clicked, this, [this] { trainInteractively(m_lastSettings); });
    connect(m_againButton, &QPushButton::clicked, this,
            [this] { trainInteractively(TrainingLauncher::settingsOfRun(currentRunDirectory(), m_lastSettings)); });
    m_backgroundPoll.setInterval(2000);
    connect(&m_backgroundPoll, &QTimer::timeout, this, &TrainingDock::updateButtons);
    connect(m_stopButton, &QPushButton::clicked, this, &TrainingDock::stopTraining);
    connect(m_useModelButton, &QPushButton::clicked, this, &TrainingDock::useViewedRunForPredictions);
    connect(m_stopAfterEpochButton, &QPushButton::clicked, this, &TrainingDock::stopAfterEpoch);
    connect(m_resumeButton, &QPushButton::clicked, this, &TrainingDock::resumeInteractively);
    connect(m_openButton, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a run folder"), runsFolder());
        if (!dir.isEmpty() && !openRunFolder(dir))
            QMessageBox::warning(this, tr("Open run"), m_status->text());
    });
}

// The runs table, the run folder's watchers and the monitor.
void TrainingDock::connectRunViews()
{
    // A run the user selects is shown and becomes the model in use; one the panel selects to
    // show a training it started is only shown.
    connect(m_runs, &RunsTable::currentRunChanged, this, [this](const QString& name) {
        const QString dir = m_runs->runDirectory(name);
        showRun(dir);
        if (!m_viewOnly && !dir.isEmpty())
            m_model->choose(dir);
    });
    connect(m_runs, &RunsTable::comparisonChanged, this, &TrainingDock::compareRuns);
    connect(m_runsWatcher, &QFileSystemWatcher::directoryChanged, this, &TrainingDock::refreshRuns);
    connect(m_watcher, &RunWatcher::reset, this, [this] {
        m_monitor->clear();
        m_progress.clear();
        updateInfo();
    });
    connect(m_watcher, &RunWatcher::recordsAdded, this, &TrainingDock::addRecords);
    connect(m_watcher, &RunWatcher::warning, this, [this](const QString& message) { m_status->setText(message); });
    connect(m_monitor, &TrainingMonitor::statusMessage, this, [this](const QString& text) {
        if (!text.isEmpty())
            m_status->setText(text);
    });
}

void TrainingDock::connectLauncher()
{
    connect(m_launcher, &TrainingLauncher::started, this, &TrainingDock::trainingStarted);
    connect(m_launcher, &TrainingLauncher::output, this, &TrainingDock::appendLog);
    connect(m_launcher, &TrainingLauncher::packingProgress, this, [this](const QString& split, int done, int total) {
        m_packing->setRange(0, total);
        m_packing->setValue(done);
        m_packing->setFormat(tr("Packing the %1 images: %v of %m").arg(split));
        m_packing->setVisible(true);
    });
    connect(m_launcher, &TrainingLauncher::packingEnded, m_packing, &QWidget::hide);
    connect(m_launcher, &TrainingLauncher::remoteStarted, this,
            [this](const QString& where) {
                m_status->setText(tr("Training there: %1; its run folder is mirrored here.").arg(where));
                refreshRuns();  // its row says where
            });
    connect(m_launcher, &TrainingLauncher::connectionChanged, this, [this](bool, const QString& message) {
        m_status->setText(message);
        appendLog(message + QLatin1Char('\n'));
    });
    connect(m_launcher, &TrainingLauncher::finished, this, [this](bool ok, const QString& message) {
        m_status->setText(message);
        appendLog(message + QLatin1Char('\n'));
        m_outcomeRun = m_launcher->runDirectory();
        m_outcomeState = ok ? tr("Finished") : message.startsWith(tr("Stopped")) ? tr("Stopped") : tr("Failed");
        m_outcomeReason = ok ? QString() : message;
        m_watcher->poll();  // the last records, before the panel says the run ended
        refreshRuns();
        updateInfo();
        updateButtons();
    });
    // A run trained here takes over predictions only when it validated better on the same images.
    connect(m_launcher, &TrainingLauncher::finished, this, [this](bool ok) {
        if (ok)
            m_model->offer(m_launcher->runDirectory());
    });
    // After the panel has taken the outcome in: whoever listens sees it updated.
    connect(m_launcher, &TrainingLauncher::finished, this, &TrainingDock::trainingFinished);
}

TrainingDock::~TrainingDock() = default;

// The fine-tune gives way to this panel's training (one under way is dropped when it starts),
// counts the labels again after it, and learns from the run in view.
void TrainingDock::connectLiveFineTuner()
{
    m_fineTuner->setObjectName(QStringLiteral("liveFineTuner"));
    m_fineTuner->setUserTrainingBusy([this] { return m_ownTrainingRuns; });
    connect(this, &TrainingDock::trainingStarted, m_fineTuner, [this] {
        m_ownTrainingRuns = true;
        m_fineTuner->userTrainingStarted();
    });
    connect(this, &TrainingDock::trainingFinished, m_fineTuner, [this] {
        m_ownTrainingRuns = false;
        m_fineTuner->labelsChanged();  // what was labelled meanwhile may make a fine-tune due
    });
    connect(m_model, &ModelChoice::changed, m_fineTuner, &LiveFineTuner::setBaseRun);
    connect(m_fineTuner, &LiveFineTuner::stateChanged, this,
            [this] { emit liveFineTuneStatusChanged(m_fineTuner->statusText()); });
    connect(m_fineTuner, &LiveFineTuner::learned, this, &TrainingDock::liveModelReplaced);
    // Turned off, the live run is gone: the model it learned from predicts again.
    connect(m_fineTuner, &LiveFineTuner::liveRunRemoved, this, [this](const QString& live, const QString& base) {
        refreshRuns();
        if (m_model->runDirectory() != live)
            return;
        m_model->choose(QFileInfo::exists(base) ? base : QString());
        emit modelMessage(tr("Predict as I label is off: its model %1 was removed; predictions come from %2 again")
                              .arg(QFileInfo(live).fileName(), QFileInfo(base).fileName()));
    });
}

void TrainingDock::connectModelChoice()
{
    connect(m_model, &ModelChoice::changed, this, [this](const QString& runDir) {
        m_runs->setModelRun(runDir);
        updateButtons();
        emit modelRunChanged(runDir);
    });
    // Said where the run is watched (it stays) and in the status bar of every workspace.
    connect(m_model, &ModelChoice::message, m_status, &QLabel::setText);
    connect(m_model, &ModelChoice::message, this, &TrainingDock::modelMessage);
}

QString TrainingDock::modelRunDirectory() const { return m_model->runDirectory(); }

void TrainingDock::useViewedRunForPredictions()
{
    m_model->choose(currentRunDirectory());
    emit modelMessage(tr("%1 predicts and answers Smart Click now").arg(QFileInfo(currentRunDirectory()).fileName()));
}

// The live model learned: in use already (the user chose it), its new weights are loaded;
// otherwise it takes over only when it validated better than the model it started from.
void TrainingDock::liveModelReplaced(const QString& liveRunDir, bool validatedBetter, const QString& verdict)
{
    refreshRuns();
    if (m_model->runDirectory() == liveRunDir) {
        emit modelReloaded();
        emit modelMessage(tr("The live model learned from your labels: %1").arg(verdict));
        return;
    }
    // Better than the run it started from; the user may have chosen another since: offer it then.
    if (validatedBetter && m_model->runDirectory() == LiveFineTuner::baseRunDirectoryOf(liveRunDir))
        m_model->choose(liveRunDir);
    else if (validatedBetter)
        m_model->offer(liveRunDir);
    emit modelMessage(tr("The live model learned from your labels: %1").arg(verdict));
}

void TrainingDock::setBeforeLearning(std::function<bool()> saveLabels)
{
    m_fineTuner->setBeforeLearning(std::move(saveLabels));
}

QString TrainingDock::liveFineTuneStatus() const { return m_fineTuner->statusText(); }

QString TrainingDock::liveFineTuneActivity() const { return m_fineTuner->activityText(); }

void TrainingDock::setLearnAsILabel(bool enabled, int interval)
{
    m_fineTuner->setInterval(interval);
    const bool wasOn = m_fineTuner->isEnabled();
    m_fineTuner->setEnabled(enabled && m_readOnlyReason.isEmpty());
    // Unticked here, in a window that may write: its live run goes (never another window's).
    if (wasOn && !enabled && m_readOnlyReason.isEmpty())
        m_fineTuner->removeLiveRun(runsFolder());
}

void TrainingDock::setTrainer(const QString& program)
{
    m_launcher->setTrainer(program);
    m_fineTuner->setTrainer(program);
    updateButtons();
}

bool TrainingDock::isBusy() const { return m_launcher->isBusy(); }

void TrainingDock::keepTrainingInBackground() { m_launcher->keepRunningInBackground(); }

void TrainingDock::setDocument(const document::ProjectDocument* document)
{
    // A read-only window (the project is open in another SegStudio) starts no training: the runs
    // folder is the other window's to write.
    m_readOnlyReason = document && document->isReadOnly() ? document->readOnlyReason() : QString();
    m_fineTuner->setDocument(document);
    m_projectClassNames.clear();
    if (document)
        for (const auto& labelClass : document->project().schema().classes())
            m_projectClassNames << QString::fromStdString(labelClass.name);
    // The Train dialog packs at the images' own size (at most 480 px long), as the defaults were
    // measured on CamVid's 360x480; a project without readable images keeps the settings' size.
    const cv::Size packSize = document ? data::defaultPackSize(document->project()) : cv::Size();
    m_defaultPackSize = QSize(packSize.width, packSize.height);
    setProjectFile(document ? QString::fromStdString(document->project().file().string()) : QString());
}

void TrainingDock::setProjectFile(const QString& projectFile)
{
    m_projectFile = projectFile;
    // Each project proposes what was last chosen for it (a 1-minute demo run stays 1 minute).
    const TrainingLauncher::Settings defaults = TrainDialog::presetSettings(TrainDialog::EngineDefaults, m_defaultPackSize);
    m_lastSettings = TrainSettingsStore::read(projectFile, defaults).value_or(defaults);
    m_status->clear();
    // Nothing of the last project stays in view: plot (and its ranges) and log start empty.
    if (!m_launcher->isBusy())
        showRun({});
    refreshRuns();
    // A project opens on the model chosen for it last time (else its best validated run), so its
    // curves and predictions are there after a restart.
    QStringList runs;
    for (const QString& name : m_runs->runNames())
        runs << m_runs->runDirectory(name);
    m_model->restore(projectFile, ModelComparison::bestOf(runs));
    if (m_runs->currentRun().isEmpty() && !m_model->runDirectory().isEmpty()) {
        const QScopedValueRollback viewOnly(m_viewOnly, true);
        m_runs->setCurrentRun(m_runs->nameOf(m_model->runDirectory()));
    }
    followRunElsewhere();
    updateButtons();
}

void TrainingDock::followRunElsewhere()
{
    if (m_launcher->isBusy())
        return;
    for (const QString& name : m_runs->runNames()) {
        const QString dir = m_runs->runDirectory(name);
        if (!QFileInfo::exists(common::pathOf(remote::RemoteRunRecord::fileIn(dir.toStdString()))))
            continue;
        const auto progress = run::RunProgress::read(common::layoutOf(dir).metricsFile());
        if (run::isEnded(progress.state()))
            continue;  // its end has come home already
        if (m_launcher->attachRemote(dir)) {
            const QScopedValueRollback viewOnly(m_viewOnly, true);
            selectRun(name);
            return;
        }
    }
}

QString TrainingDock::runsFolder() const
{
    if (m_projectFile.isEmpty())
        return {};
    return QFileInfo(m_projectFile).dir().filePath(QStringLiteral("runs"));
}

QStringList TrainingDock::runNames() const { return m_runs->runNames(); }

void TrainingDock::refreshRuns()
{
    const QString current = m_runs->currentRun();
    if (!m_runsWatcher->directories().isEmpty())
        m_runsWatcher->removePaths(m_runsWatcher->directories());
    if (!m_projectFile.isEmpty()) {
        // Until runs/ exists, watch the project folder for it to appear.
        const QString watched = QDir(runsFolder()).exists() ? runsFolder() : QFileInfo(m_projectFile).path();
        if (QDir(watched).exists())
            m_runsWatcher->addPath(watched);
    }
    // Keep the selected run when it is still there; the watcher follows the selection (the
    // selection signals are held back here, and another project may have a run of the same name).
    QString expected;
    const QStringList comparedBefore = m_runs->comparedRuns();
    {
        const QSignalBlocker blocker(m_runs);
        m_runs->setRunsFolder(runsFolder());
        if (!current.isEmpty() && m_runs->setCurrentRun(current))
            expected = QDir(runsFolder()).filePath(current);
    }
    // Held back with the rest: ticked runs of another project (or deleted ones) leave the plot.
    if (m_runs->comparedRuns() != comparedBefore)
        compareRuns(m_runs->comparedRuns());
    // A run opened from elsewhere (openRunFolder) stays in view while the project's runs change.
    const QString watched = m_watcher->runDirectory();
    const bool external = !watched.isEmpty() && QFileInfo(watched).dir() != QDir(runsFolder());
    if (!external && watched != expected)
        showRun(expected);
    updateButtons();
}

bool TrainingDock::selectRun(const QString& name)
{
    if (!m_runs->runNames().contains(name))
        return false;
    if (m_runs->currentRun() == name)
        showRun(QDir(runsFolder()).filePath(name));  // re-read from the start
    else
        m_runs->setCurrentRun(name);
    return true;
}

bool TrainingDock::openRunFolder(const QString& dir)
{
    if (!QFileInfo::exists(common::pathOf(common::layoutOf(dir).metricsFile()))) {
        m_status->setText(tr("%1 holds no metrics.jsonl: not a run folder (yet)").arg(dir));
        return false;
    }
    if (QDir(runsFolder()) == QFileInfo(dir).dir())
        return selectRun(QFileInfo(dir).fileName());
    // Listed with the project's runs (in the runs table until another project opens) and selected
    // as any run clicked there: shown, and its model in use.
    if (!m_runs->setCurrentRun(m_runs->addExternalRun(dir)))
        showRun(dir);
    return true;
}

QString TrainingDock::currentRunDirectory() const { return m_watcher->runDirectory(); }

void TrainingDock::showRun(const QString& dir)
{
    m_monitor->setRunDirectory(dir);
    showClassNames(dir);
    m_watcher->setRunDirectory(dir);
    emit currentRunChanged(dir);
    // The trainer's own output stays while it runs; an older run shows its log.txt.
    if (!m_launcher->isBusy())
        showLogFile(dir);
    updateButtons();
}

// The run's classes by name, for the per-class IoU of the details plot and the CSV export: from
// its training pack (a run started from a terminal names its pack in config.json), else the open
// project's classes when the run turns out to have as many. Numbers only when neither is known.
void TrainingDock::showClassNames(const QString& dir)
{
    QStringList names;
    if (!dir.isEmpty()) {
        QStringList packs{common::pathOf(common::layoutOf(dir).trainPack())};
        if (const auto config = run::RunConfigFile::read(dir.toStdString()); config && config->trainPack)
            packs << QString::fromStdString(*config->trainPack);
        for (const QString& file : packs) {
            if (file.isEmpty() || !QFileInfo::exists(file))
                continue;
            try {
                const pack::PackReader pack(file.toStdString(), /*verifyChecksum=*/false);
                for (const auto& c : pack.spec().classes)
                    names << QString::fromStdString(c.name);
                break;
            } catch (const pack::PackError&) {
                // unreadable: the next candidate
            }
        }
    }
    m_monitor->setClassNames(names, m_projectClassNames);
}

void TrainingDock::addRecords(const std::vector<run::MetricsRecord>& records)
{
    m_monitor->addRecords(records);
    const run::RunState before = m_progress.state();
    m_progress.add(records);
    m_runs->updateRun(m_runs->nameOf(currentRunDirectory()), m_progress);
    updateInfo();
    // Resume and Train again look at the run's files: only when its state changes (a stop or an
    // end writes the checkpoint), not for every chunk of records.
    if (m_progress.state() != before)
        updateButtons();
}

void TrainingDock::compareRuns(const QStringList& runDirs)
{
    // Read on a worker; the overlay comes when it is read.
    // Reads finish in any order: only the latest request's answer is drawn.
    const int request = ++m_comparisonRequest;
    auto* watcher = new QFutureWatcher<std::vector<MetricsPlot::ComparedRun>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, request] {
        if (request == m_comparisonRequest)
            m_monitor->plot()->setComparison(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(common::runInBackground([runDirs] {
        std::vector<MetricsPlot::ComparedRun> runs;
        for (const QString& dir : runDirs)
            runs.push_back(MetricsPlot::readComparedRun(QFileInfo(dir).fileName(),
                                                        run::RunLayout(dir.toStdString()).metricsFile()));
        return runs;
    }));
}

void TrainingDock::updateInfo()
{
    emit progressChanged();
    if (m_watcher->runDirectory().isEmpty()) {
        m_info->clear();
        return;
    }
    m_info->showProgress(m_progress);
    // The launcher knows how its process ended even when the file cannot say (a trainer that
    // failed before writing, a crash); the file's own "ended" state wins when it has one.
    if (m_outcomeRun == m_watcher->runDirectory() && !m_outcomeState.isEmpty() && !run::isEnded(m_progress.state()))
        m_info->showOutcome(m_outcomeState, m_outcomeReason);
}

void TrainingDock::showLogFile(const QString& dir)
{
    m_log->clear();
    if (dir.isEmpty())
        return;
    QFile file(common::pathOf(common::layoutOf(dir).logFile()));
    if (!file.open(QIODevice::ReadOnly))
        return;
    if (file.size() > kLogTailBytes)
        file.seek(file.size() - kLogTailBytes);
    appendLog(QString::fromUtf8(file.readAll()));
}

void TrainingDock::appendLog(const QString& text) { common::appendProcessOutput(m_log, text); }

void TrainingDock::trainInteractively(const TrainingLauncher::Settings& proposed)
{
    if (m_beforeTrainDialog)
        m_beforeTrainDialog();
    const QString name = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    TrainDialog dialog(name, proposed, runsFolder(), m_launcher->models(), this, m_launcher->devices(), m_defaultPackSize);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_lastSettings = dialog.settings();
    TrainSettingsStore::write(m_projectFile, m_lastSettings);
    if (!confirmJobScript(dialog.runName(), m_lastSettings))
        return;
    if (!startTraining(dialog.runName(), m_lastSettings))
        QMessageBox::warning(this, tr("Train"), m_status->text());
}

// A SLURM job's script, shown before it is submitted: what the cluster will run, in whose name.
bool TrainingDock::confirmJobScript(const QString& name, const TrainingLauncher::Settings& settings)
{
    if (!settings.where || settings.where->kind != remote::RemoteTarget::Kind::Slurm)
        return true;
    QMessageBox box(QMessageBox::Question, tr("Submit to SLURM"),
                    tr("This job script goes to %1 and is submitted with sbatch once the packs are there:")
                        .arg(QString::fromStdString(settings.where->describe())),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("jobScriptBox"));
    box.setInformativeText(QStringLiteral("<pre style=\"white-space: pre-wrap\">%1</pre>").arg(TrainingLauncher::jobScript(QDir(runsFolder()).filePath(name), settings).toHtmlEscaped()));
    QPushButton* submit = box.addButton(tr("Submit"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(submit);
    box.exec();
    return box.clickedButton() == submit;
}

bool TrainingDock::startTraining(const QString& name, const TrainingLauncher::Settings& settings)
{
    if (m_projectFile.isEmpty() || m_launcher->isBusy())
        return false;
    if (m_beforeTraining && !m_beforeTraining()) {
        m_status->setText(tr("The labels could not be saved, so training did not start."));
        return false;
    }
    const QString dir = QDir(runsFolder()).filePath(name);
    m_log->clear();
    m_outcomeRun.clear();
    if (!m_launcher->start(m_projectFile, dir, settings))
        return false;
    m_status->setText(tr("Training %1…").arg(name));
    refreshRuns();
    {
        const QScopedValueRollback viewOnly(m_viewOnly, true);  // watched, not yet the model in use
        selectRun(name);
    }
    updateButtons();
    return true;
}

void TrainingDock::resumeInteractively()
{
    if (m_progress.timeBudgetSeconds() > 0) {
        resumeBudgetedRunInteractively();
        return;
    }
    const int configured = std::max(1, m_progress.epochs());
    // A finished run resumes only for more epochs; a stopped one may keep its total. Fewer than
    // it trained are not offered (the trainer refuses them: its --epochs is the run's total).
    const int proposed = m_progress.state() == run::RunState::Finished ? configured * 2 : configured;
    bool ok = false;
    const int epochs = QInputDialog::getInt(this, tr("Resume"),
                                            tr("Train %1 until epoch (now %2 of %3):")
                                                .arg(QFileInfo(currentRunDirectory()).fileName())
                                                .arg(m_progress.epochsDone())
                                                .arg(configured),
                                            proposed, std::min(m_progress.epochsDone() + 1, proposed), 100000, 1, &ok);
    if (ok && !resumeTraining(epochs == configured ? 0 : epochs))
        QMessageBox::warning(this, tr("Resume"), m_status->text());
}

// A time-budgeted run's budget is training time: Resume asks for a new total of minutes, not epochs
// (keeping the total lets a stopped run use what its earlier sessions left).
void TrainingDock::resumeBudgetedRunInteractively()
{
    const int budget = std::max(1, int(std::lround(m_progress.timeBudgetSeconds() / 60.0)));
    const int proposed = m_progress.state() == run::RunState::Finished ? budget * 2 : budget;
    bool ok = false;
    const int minutes = QInputDialog::getInt(this, tr("Resume"),
                                             tr("Train %1 for this many minutes in all (%2 % of %3 minutes done):")
                                                 .arg(QFileInfo(currentRunDirectory()).fileName())
                                                 .arg(int(100.0 * m_progress.fractionDone()))
                                                 .arg(budget),
                                             proposed, 1, 7 * 24 * 60, 1, &ok);
    if (ok && !resumeTraining(0, minutes == budget ? 0 : minutes))
        QMessageBox::warning(this, tr("Resume"), m_status->text());
}

bool TrainingDock::resumeTraining(int epochs, int minutes)
{
    const QString dir = currentRunDirectory();
    if (dir.isEmpty() || m_launcher->isBusy())
        return false;
    m_log->clear();
    m_outcomeRun.clear();
    if (!m_launcher->resume(dir, epochs, minutes)) {
        m_status->setText(tr("%1 has no checkpoint to resume from").arg(QFileInfo(dir).fileName()));
        return false;
    }
    m_status->setText(tr("Resuming %1…").arg(QFileInfo(dir).fileName()));
    updateButtons();
    return true;
}

void TrainingDock::stopTraining()
{
    if (!m_launcher->isBusy()) {
        stopBackgroundTrainer(SIGTERM);
        return;
    }
    m_status->setText(tr("Stopping: the trainer saves a checkpoint…"));
    m_launcher->stop();
}

// A trainer left running by an earlier window (or started from a shell) on the run in view: the
// same two requests as for our own, by signal. Each is sent once: the trainer honours the first.
bool TrainingDock::stopBackgroundTrainer(int signal)
{
    const auto pid = TrainingLauncher::liveTrainerOf(currentRunDirectory());
    if (!pid || m_backgroundSignals.value(*pid).contains(signal))
        return false;
    if (::kill(pid_t(*pid), signal) != 0)
        return false;
    m_backgroundSignals[*pid].insert(signal);
    m_status->setText(signal == SIGTERM ? tr("Stopping: the trainer saves a checkpoint…")
                                        : tr("Stopping after this epoch and its validation…"));
    updateButtons();
    return true;
}

bool TrainingDock::stopAfterEpoch()
{
    if (!m_launcher->isBusy())
        return stopBackgroundTrainer(SIGUSR1);
    if (!m_launcher->stopAfterEpoch())
        return false;
    m_status->setText(tr("Stopping after this epoch and its validation…"));
    m_stopAfterEpochAsked = true;
    updateButtons();
    return true;
}

bool TrainingDock::confirmClose(QWidget* parent)
{
    if (!m_launcher->isBusy())
        return true;
    // A run elsewhere trains there whatever this window does, and the panel follows it again;
    // one still being started is stopped first, or it would train there untracked.
    if (m_launcher->isRemote())
        return m_launcher->isTraining() || stopAndWait(parent);
    if (!m_launcher->isTraining()) {
        m_launcher->stop();  // packing saves nothing: the next start packs again
        return true;
    }
    // Stop was asked already: nothing to choose, the window waits for the checkpoint (which
    // can still be left running from the progress dialog). Issue 46.12.
    if (m_launcher->isStopping())
        return stopAndWait(parent);
    QMessageBox box(QMessageBox::Question, tr("Training"),
                    tr("A training is running in %1.").arg(QDir::toNativeSeparators(m_launcher->runDirectory())),
                    QMessageBox::NoButton, parent);
    box.setInformativeText(tr("It can go on without this window: the Training panel shows it again when the project "
                              "opens. Or it stops now and saves a checkpoint, which Resume continues later."));
    QPushButton* keep = box.addButton(tr("Keep Training in the Background"), QMessageBox::AcceptRole);
    QPushButton* stop = box.addButton(tr("Stop and Save a Checkpoint"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(keep);
    box.exec();
    if (box.clickedButton() == keep) {
        m_launcher->keepRunningInBackground();
        return true;
    }
    return box.clickedButton() == stop && stopAndWait(parent);
}

// Waits, with progress, for the trainer to save its checkpoint and end; the user may leave it
// running instead. Always true: either way the window may close.
bool TrainingDock::stopAndWait(QWidget* parent)
{
    stopTraining();
    QProgressDialog progress(tr("Stopping the training: the trainer saves a checkpoint…"), tr("Leave It Running"), 0, 0,
                             parent);
    progress.setObjectName(QStringLiteral("stoppingProgress"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    QEventLoop loop;
    connect(m_launcher, &TrainingLauncher::finished, &loop, &QEventLoop::quit);
    connect(&progress, &QProgressDialog::canceled, &loop, &QEventLoop::quit);
    if (m_launcher->isBusy()) {
        progress.show();
        loop.exec();
    }
    if (m_launcher->isBusy())
        m_launcher->keepRunningInBackground();
    return true;
}

void TrainingDock::updateButtons()
{
    const bool busy = m_launcher->isBusy();
    const bool haveTrainer = !m_launcher->trainer().isEmpty();
    const bool project = !m_projectFile.isEmpty();
    const QString run = currentRunDirectory();
    const bool writable = m_readOnlyReason.isEmpty();
    m_trainButton->setEnabled(project && !busy && haveTrainer && writable);
    for (QPushButton* button : {m_trainButton, m_againButton, m_resumeButton})
        button->setToolTip(m_toolTips.value(button));
    if (!haveTrainer)
        m_trainButton->setToolTip(tr("segstudio-train was not found next to the application or on PATH"));
    if (!writable)  // the first reason a person needs
        for (QPushButton* button : {m_trainButton, m_againButton, m_resumeButton})
            button->setToolTip(m_readOnlyReason);
    // A run trained in the background (its window was closed): followed from its folder, and
    // Stop / Stop after epoch reach its trainer by signal.
    const auto background = busy ? std::nullopt : TrainingLauncher::liveTrainerOf(run);
    const QSet<int> sent = background ? m_backgroundSignals.value(*background) : QSet<int>();
    if (!background && !m_backgroundSignals.isEmpty()) {  // the trainer we asked to stop has ended
        m_backgroundSignals.clear();
        m_shownBackground.reset();
        m_status->setText(tr("The background training has ended; its checkpoint is saved: Resume continues the run."));
    }
    if (!background && m_shownBackground) {  // it ended by itself: the line must not stay (issue 47.14)
        m_status->setText(tr("The background training (process %1) has ended.").arg(*std::exchange(m_shownBackground, std::nullopt)));
    }
    if (background && !sent.contains(SIGTERM) && !sent.contains(SIGUSR1)) {
        m_shownBackground = *background;
        m_status->setText(tr("Training in the background (process %1): Stop and Stop after epoch reach it from here.")
                              .arg(*background));
    }
    m_stopButton->setEnabled(busy || (background && !sent.contains(SIGTERM)));
    if (!busy)
        m_stopAfterEpochAsked = false;
    m_stopAfterEpochButton->setEnabled((busy && !m_stopAfterEpochAsked) || (background && sent.isEmpty()));
    m_trainButton->setEnabled(m_trainButton->isEnabled() && !background);
    // Its end shows only as the process going away: look again while one is in view.
    if (background && !m_backgroundPoll.isActive())
        m_backgroundPoll.start();
    else if (!background)
        m_backgroundPoll.stop();
    m_resumeButton->setEnabled(writable && !busy && !background && haveTrainer && !run.isEmpty() &&
                               (common::layoutOf(run).canResume() ||
                                QFileInfo::exists(common::pathOf(remote::RemoteRunRecord::fileIn(run.toStdString())))));
    m_againButton->setEnabled(writable && project && !busy && haveTrainer && !run.isEmpty()
                              && QFileInfo::exists(common::pathOf(common::layoutOf(run).configFile())));
    m_useModelButton->setEnabled(!run.isEmpty() && run != m_model->runDirectory() &&
                                 QFileInfo::exists(common::pathOf(common::layoutOf(run).checkpointToUse())));
    m_runs->setEnabled(project);
}

}  // namespace segstudio::ui::training
