#include "LiveFineTuner.h"

#include "ModelComparison.h"

#include "common/TrainerArguments.h"
#include "document/ProjectDocument.h"

#include "data/project/Project.h"
#include "pack/PackError.h"
#include "pack/PackReader.h"
#include "run/RunConfigFile.h"
#include "run/RunLayout.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSaveFile>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <optional>

namespace segstudio::ui::training {

namespace {

QString path(const std::filesystem::path& file) { return QString::fromStdString(file.string()); }

// The size the base run was packed at: its own train.pack, or the pack its config names (a run
// started from a terminal keeps its packs elsewhere).
std::optional<std::pair<int, int>> packSizeOf(const QString& runDir)
{
    const auto config = run::RunConfigFile::read(runDir.toStdString());
    const QStringList candidates{path(run::RunLayout(runDir.toStdString()).trainPack()),
                                 config && config->trainPack ? QString::fromStdString(*config->trainPack) : QString()};
    for (const QString& candidate : candidates) {
        if (candidate.isEmpty() || !QFileInfo::exists(candidate))
            continue;
        try {
            const pack::PackReader pack(candidate.toStdString(), /*verifyChecksum=*/false);
            return std::make_pair(int(pack.spec().height), int(pack.spec().width));
        } catch (const pack::PackError&) {
            // unreadable: try the next one
        }
    }
    return std::nullopt;
}

const QString kLiveSuffix = QStringLiteral("-live");

// "1 labelled image", "4 labelled images": no translator is loaded, so %n plurals would read "image(s)".
QString labelledImages(int count)
{
    return count == 1 ? LiveFineTuner::tr("1 labelled image") : LiveFineTuner::tr("%1 labelled images").arg(count);
}

}  // namespace

LiveFineTuner::LiveFineTuner(QObject* parent)
    : QObject(parent), m_progressTimer(new QTimer(this)), m_process(new common::TrainerProcess(this))
{
    m_progressTimer->setInterval(1000);
    connect(m_progressTimer, &QTimer::timeout, this, &LiveFineTuner::readProgress);
    // The lowest CPU priority: labeling stays responsive, and any other work of the user's wins.
    m_process->setLaunch(common::TrainerProcess::Launch::LowestPriority);
    connect(m_process, &common::TrainerProcess::output, this, &LiveFineTuner::output);
    connect(m_process, &common::TrainerProcess::finished, this, &LiveFineTuner::stepFinished);
}

LiveFineTuner::~LiveFineTuner()
{
    m_process->disconnect(this);
    stopProcess();
}

void LiveFineTuner::setProject(const data::Project* project)
{
    if (project == m_project)
        return;
    stopProcess();
    m_project = project;
    m_baseRun.clear();
    m_learnedFrom.clear();
    m_learnedAt = {};
    updateState();
}

void LiveFineTuner::setDocument(const document::ProjectDocument* document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    setProject(document ? &document->project() : nullptr);
    if (!document)
        return;
    // A status or split changed, or images came and went: the live model may be due to learn.
    using document::ProjectDocument;
    for (auto signal : {&ProjectDocument::statusChanged, &ProjectDocument::splitChanged})
        connect(document, signal, this, [this] { labelsChanged(); });
    connect(document, &ProjectDocument::entriesChanged, this, &LiveFineTuner::labelsChanged);
}

void LiveFineTuner::setBaseRun(const QString& runDir)
{
    if (runDir == m_baseRun)
        return;
    // A fine-tune of the previous base goes on (its record and folder are its own); the next
    // one starts from the new base.
    m_baseRun = runDir;
    m_failedAt = -1;
    if (m_step == Step::Idle)
        readRecord();
    labelsChanged();
}

void LiveFineTuner::setEnabled(bool enabled)
{
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    if (!enabled)
        stopProcess();
    m_failedAt = -1;
    readRecord();
    labelsChanged();
}

void LiveFineTuner::setInterval(int images)
{
    m_interval = std::max(1, images);
    labelsChanged();
}

QString LiveFineTuner::liveRunName(const QString& baseRunName)
{
    return baseRunName.endsWith(kLiveSuffix) ? baseRunName : baseRunName + kLiveSuffix;
}

QString LiveFineTuner::liveRunDirectory() const { return liveRunDirectoryOf(m_baseRun); }

QString LiveFineTuner::liveRunDirectoryOf(const QString& baseRun)
{
    if (baseRun.isEmpty())
        return {};
    const QFileInfo base(baseRun);
    return base.dir().filePath(liveRunName(base.fileName()));
}

QString LiveFineTuner::baseRunDirectoryOf(const QString& liveRunDir)
{
    const QFileInfo live(liveRunDir);
    const QString name = live.fileName();
    return live.dir().filePath(name.endsWith(kLiveSuffix) ? name.left(name.size() - kLiveSuffix.size()) : name);
}

QString LiveFineTuner::recordFileOf(const QString& baseRun)
{
    const QFileInfo live(liveRunDirectoryOf(baseRun));
    return live.dir().filePath(QStringLiteral(".%1.json").arg(live.fileName()));
}

QString LiveFineTuner::stagingDirectoryOf(const QString& baseRun)
{
    const QFileInfo live(liveRunDirectoryOf(baseRun));
    return live.dir().filePath(QStringLiteral(".%1.next").arg(live.fileName()));
}

QString LiveFineTuner::checkpointOf(const QString& baseRun)
{
    if (baseRun.isEmpty())
        return {};
    const QString file = path(run::RunLayout(baseRun.toStdString()).checkpointToUse());
    return QFileInfo::exists(file) ? file : QString();
}

QSet<QString> LiveFineTuner::labelledTrainingImages() const
{
    QSet<QString> images;
    if (!m_project)
        return images;
    for (const auto& entry : m_project->entries())
        if (entry.split == data::Split::Train &&
            (entry.status == data::LabelStatus::Labelled || entry.status == data::LabelStatus::Reviewed))
            images.insert(QString::fromStdString(entry.image));
    return images;
}

QSet<QString> LiveFineTuner::packedTrainingImages() const
{
    QSet<QString> images;
    if (!m_project)
        return images;
    for (std::size_t i = 0; i < m_project->size(); ++i) {
        const auto& entry = m_project->entry(i);
        if (entry.split == data::Split::Train && entry.status != data::LabelStatus::Unlabelled &&
            QFileInfo::exists(path(m_project->labelMapPath(i))))
            images.insert(QString::fromStdString(entry.image));
    }
    return images;
}

int LiveFineTuner::newlyLabelled() const
{
    int count = 0;
    for (const QString& image : labelledTrainingImages())
        count += m_learnedFrom.contains(image) ? 0 : 1;
    return count;
}

// The images counted as learned: the record's, or (first time on) the images labelled now, so
// that turning it on counts from here instead of relearning what the base run trained on.
void LiveFineTuner::readRecord()
{
    m_learnedFrom.clear();
    m_learnedAt = {};
    m_verdict.clear();
    if (m_baseRun.isEmpty() || !m_project)
        return;
    QFile file(recordFile());
    if (file.open(QIODevice::ReadOnly)) {
        const QJsonObject record = QJsonDocument::fromJson(file.readAll()).object();
        for (const auto& image : record.value(QStringLiteral("learnedFrom")).toArray())
            m_learnedFrom.insert(image.toString());
        m_learnedAt = QDateTime::fromString(record.value(QStringLiteral("learnedAt")).toString(), Qt::ISODate);
        return;
    }
    m_learnedFrom = labelledTrainingImages();
    if (m_enabled)
        writeRecord(m_learnedFrom, {});
}

void LiveFineTuner::writeRecord(const QSet<QString>& images, const QDateTime& when) const
{
    QStringList sorted(images.begin(), images.end());
    sorted.sort();
    QJsonObject record;
    record.insert(QStringLiteral("learnedFrom"), QJsonArray::fromStringList(sorted));
    record.insert(QStringLiteral("learnedAt"), when.isValid() ? when.toString(Qt::ISODate) : QString());
    const QString base = m_stepBase.isEmpty() ? m_baseRun : m_stepBase;
    record.insert(QStringLiteral("baseRun"), base);
    QSaveFile file(recordFileOf(base));
    if (file.open(QIODevice::WriteOnly)) {
        file.write(QJsonDocument(record).toJson());
        file.commit();  // a failure only costs the count of new images, never labels
    }
}

void LiveFineTuner::labelsChanged()
{
    if (m_step != Step::Idle) {
        emit stateChanged();  // the count in the status line
        return;
    }
    updateState();
    if (m_state != State::Counting || !m_project || m_process->program().isEmpty())
        return;
    const int fresh = newlyLabelled();
    if (fresh >= m_interval && fresh > m_failedAt)
        startLearning();
}

void LiveFineTuner::updateState()
{
    if (m_step == Step::Pack || m_step == Step::Train)
        return;
    State state = State::Counting;
    if (!m_enabled || !m_project)
        state = State::Off;
    else if (baseCheckpoint().isEmpty())
        state = State::NoModel;
    else if (m_failedAt >= 0 && newlyLabelled() <= m_failedAt)
        state = State::Failed;
    else if (m_userTrainingBusy && m_userTrainingBusy() && newlyLabelled() >= m_interval)
        state = State::Waiting;
    setState(state);
}

void LiveFineTuner::userTrainingStarted()
{
    if (m_step == Step::Idle)
        return;
    stopProcess();
    setState(State::Waiting);
}

void LiveFineTuner::startLearning()
{
    if (m_beforeLearning && !m_beforeLearning()) {
        fail(tr("the labels could not be saved"));
        return;
    }
    const auto size = packSizeOf(m_baseRun);
    if (!size) {
        fail(tr("the training pack of %1 is missing, so its image size is unknown").arg(QFileInfo(m_baseRun).fileName()));
        return;
    }
    m_stepBase = m_baseRun;  // the step's paths, whatever is selected while it runs
    m_learning = packedTrainingImages();
    const QString staging = stagingDirectoryOf(m_stepBase);
    QDir(staging).removeRecursively();  // a fine-tune interrupted earlier
    if (!QDir().mkpath(staging)) {
        fail(tr("cannot create %1").arg(staging));
        return;
    }
    m_step = Step::Pack;
    setState(State::Packing);
    startStep(common::TrainerArguments::pack(path(m_project->file()), QStringLiteral("train"),
                                             QDir(staging).filePath(QStringLiteral("train.pack")), size->first,
                                             size->second));
}

void LiveFineTuner::startStep(const QStringList& arguments)
{
    if (!m_process->start(arguments)) {
        m_step = Step::Idle;
        fail(common::TrainerProcess::notFoundMessage());
    }
}

void LiveFineTuner::startTraining()
{
    // A fifth of the base run's rate; a live run's config already holds the fine-tune's rate
    // (dividing again would shrink it with every fine-tune).
    const auto config = run::RunConfigFile::read(m_stepBase.toStdString());
    const double configRate = config && config->learningRate ? *config->learningRate : 5e-3;
    const bool continuesLiveRun = QFileInfo(m_stepBase).fileName().endsWith(kLiveSuffix);
    const double rate = continuesLiveRun ? configRate : configRate / 5.0;
    const QString staging = stagingDirectoryOf(m_stepBase);
    m_step = Step::Train;
    m_progress = {};
    m_metrics = std::make_unique<run::MetricsReader>(run::RunLayout(staging.toStdString()).metricsFile());
    m_progressTimer->start();
    setState(State::Learning);
    startStep(common::TrainerArguments::fineTune(m_stepBase, checkpointOf(m_stepBase),
                                                 QDir(staging).filePath(QStringLiteral("train.pack")), staging,
                                                 m_budgetSeconds, rate, ModelComparison::valPackOf(m_stepBase)));
}

void LiveFineTuner::readProgress()
{
    if (!m_metrics)
        return;
    try {
        const auto records = m_metrics->poll();
        if (m_metrics->restarted())
            m_progress = {};
        m_progress.add(records);
    } catch (const std::exception&) {
        return;  // unreadable for now: the next tick tries again
    }
    emit stateChanged();
}

QString LiveFineTuner::progressText() const
{
    if (m_state != State::Learning || m_progress.iteration() <= 0)
        return {};
    const auto minutes = [](double seconds) {
        return seconds < 90 ? tr("%1 s").arg(std::lround(seconds)) : tr("%1 min").arg(seconds / 60.0, 0, 'f', 1);
    };
    return tr("%1 of %2").arg(minutes(m_progress.elapsedSeconds()), minutes(m_budgetSeconds));
}

void LiveFineTuner::stepFinished(const common::TrainerProcess::Exit& exit)
{
    const Step step = m_step;
    m_step = Step::Idle;
    m_progressTimer->stop();
    m_metrics.reset();
    if (exit.ok && step == Step::Pack) {
        startTraining();
        return;
    }
    // Validated against the model it started from, on the same images, before it may replace anything.
    const QString live = liveRunDirectoryOf(m_stepBase);
    const auto verdict = exit.ok ? ModelComparison::compare(QFileInfo(m_stepBase).fileName(), ModelComparison::scoreOf(m_stepBase),
                                                            QFileInfo(live).fileName(),
                                                            ModelComparison::scoreOf(stagingDirectoryOf(m_stepBase)))
                                 : ModelComparison::Verdict{};
    const bool weaker = verdict.outcome == ModelComparison::Outcome::NotBetter;
    if (!exit.ok || weaker || !replaceLiveRun()) {
        if (!exit.ok)
            fail(exit.message);
        QDir(stagingDirectoryOf(m_stepBase)).removeRecursively();  // a failed or weaker fine-tune's pack and model
        if (weaker)
            finishStep(tr("the fine-tune was not kept: %1").arg(verdict.text));
        else
            followBaseRun();
        return;
    }
    finishStep(verdict.text);
    emit learned(live, verdict.outcome == ModelComparison::Outcome::Better, verdict.text);
    labelsChanged();  // labelled enough again while it learned
}

// A fine-tune ended (kept or not): its images count as learned from, and the status says how it went.
void LiveFineTuner::finishStep(const QString& verdict)
{
    m_learnedFrom = m_learning;
    m_learnedAt = QDateTime::currentDateTime();
    m_failedAt = -1;
    m_verdict = verdict;
    writeRecord(m_learnedFrom, m_learnedAt);
    followBaseRun();
    setState(State::Counting);
}

// Turned off by the user: the live run is this tuner's alone (a fine-tune of the model in use),
// hundreds of MB; it goes with its record and any staging folder. The run it learned from stays.
void LiveFineTuner::removeLiveRun(const QString& runsFolder)
{
    const QString live = liveRunDirectoryOf(m_baseRun);
    if (live.isEmpty() || runsFolder.isEmpty() || QFileInfo(live).dir() != QDir(runsFolder))
        return;  // a live run beside a run opened from elsewhere is not this project's to remove
    const bool existed = QFileInfo::exists(live);
    QDir(stagingDirectoryOf(m_baseRun)).removeRecursively();
    QFile::remove(recordFileOf(m_baseRun));
    if (!existed || !QDir(live).removeRecursively())
        return;
    emit liveRunRemoved(live, baseRunDirectoryOf(live));
}

// The step is over: from now on the selected run is the base, and its own record counts.
void LiveFineTuner::followBaseRun()
{
    const bool moved = m_stepBase != m_baseRun;
    m_stepBase.clear();
    if (moved) {
        m_failedAt = -1;
        readRecord();
    }
}

// The staging folder becomes runs/<base>-live; the previous live run is removed only once the
// new one is in place.
bool LiveFineTuner::replaceLiveRun()
{
    const QString live = liveRunDirectoryOf(m_stepBase);
    const QString old = QFileInfo(live).dir().filePath(QStringLiteral(".%1.old").arg(QFileInfo(live).fileName()));
    QDir(old).removeRecursively();
    if (QFileInfo::exists(live) && !QDir().rename(live, old)) {
        fail(tr("cannot replace %1").arg(live));
        return false;
    }
    if (!QDir().rename(stagingDirectoryOf(m_stepBase), live)) {
        QDir().rename(old, live);
        fail(tr("cannot move the new model to %1").arg(live));
        return false;
    }
    QDir(old).removeRecursively();
    return true;
}

void LiveFineTuner::fail(const QString& reason)
{
    m_failure = reason;
    m_failedAt = newlyLabelled();
    setState(State::Failed);
}

void LiveFineTuner::stopProcess()
{
    if (m_step == Step::Idle)
        return;
    // A fine-tune is disposable (it trains into the staging folder): no checkpoint to wait for,
    // and its staging folder (a pack and a model, hundreds of MB) goes with it.
    m_step = Step::Idle;
    m_progressTimer->stop();
    m_metrics.reset();
    if (m_process->isRunning()) {
        const QSignalBlocker blocker(m_process);
        m_process->kill();
    }
    QDir(stagingDirectoryOf(m_stepBase)).removeRecursively();
    followBaseRun();
}

void LiveFineTuner::setState(State state)
{
    m_state = state;
    emit stateChanged();
}

QString LiveFineTuner::activityText() const
{
    if (m_state == State::Packing)
        return tr("Predict as I label: packing %1").arg(labelledImages(int(m_learning.size())));
    if (m_state != State::Learning)
        return {};
    const QString done = progressText();
    return done.isEmpty() ? tr("Predict as I label: learning") : tr("Predict as I label: learning, %1").arg(done);
}

QString LiveFineTuner::statusText() const
{
    const int fresh = newlyLabelled();
    switch (m_state) {
    case State::Off:
        return tr("Off: the model learns only when you train it.");
    case State::NoModel:
        return tr("Select a run with a checkpoint in the Training panel: its model then learns from your labels.");
    case State::Waiting:
        return tr("Waits for your training to end (%1 new).").arg(labelledImages(fresh));
    case State::Packing:
        return tr("Packing %1 (training split, in progress included) to learn from…").arg(labelledImages(int(m_learning.size())));
    case State::Learning: {
        const QString done = progressText();
        return tr("Learning from %1 (training split) at low priority for %2%3…")
            .arg(labelledImages(int(m_learning.size())),
                 m_budgetSeconds < 90 ? tr("%1 s").arg(m_budgetSeconds) : tr("%1 min").arg(m_budgetSeconds / 60.0, 0, 'f', 1),
                 done.isEmpty() ? QString() : tr(": %1").arg(done));
    }
    case State::Failed:
        return tr("Learning failed: %1. It tries again after the next labelled image.").arg(m_failure);
    case State::Counting:
        break;
    }
    const int remaining = std::max(0, m_interval - fresh);
    if (!m_learnedAt.isValid())
        return remaining == 1 ? tr("Learns after 1 more labelled training image.")
                              : tr("Learns after %1 more labelled training images.").arg(remaining);
    const QLocale locale;
    const QString when = m_learnedAt.date() == QDate::currentDate()
                             ? locale.toString(m_learnedAt.time(), QLocale::ShortFormat)
                             : locale.toString(m_learnedAt, QLocale::ShortFormat);
    const QString verdict = m_verdict.isEmpty() ? QString() : tr(" (%1)").arg(m_verdict);
    return tr("Learned at %1 from %2%3; learns again after %4 more.")
        .arg(when, labelledImages(int(m_learnedFrom.size())), verdict, QString::number(remaining));
}

}  // namespace segstudio::ui::training
