#include "TrainingLauncher.h"

#include "RemoteTrainer.h"
#include "remote/RemoteCommands.h"

#include "common/RunLayoutOf.h"

#include "common/TrainerArguments.h"
#include "pack/PackError.h"
#include "pack/PackReader.h"
#include "run/ExitCode.h"
#include "run/RunConfigFile.h"
#include "run/RunLayout.h"

#include <QDir>
#include <QFile>
#include <QSysInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>
#include <csignal>

namespace segstudio::ui::training {

TrainingLauncher::TrainingLauncher(QObject* parent)
    : QObject(parent), m_process(new common::TrainerProcess(this)), m_catalog(new common::TrainerProcess(this)),
      m_deviceCatalog(new common::TrainerProcess(this)), m_remote(new RemoteTrainer(this))
{
    connect(m_remote, &RemoteTrainer::output, this, &TrainingLauncher::output);
    connect(m_remote, &RemoteTrainer::started, this, &TrainingLauncher::remoteStarted);
    connect(m_remote, &RemoteTrainer::connectionChanged, this, &TrainingLauncher::connectionChanged);
    connect(m_remote, &RemoteTrainer::finished, this, [this](bool ok, const QString& message) { finish(ok, message); });
    m_models = builtInModels();
    m_devices.append({QStringLiteral("cpu"), QString(), 0});
    // Its own session: a trainer the user keeps running after the window closes gets no hangup
    // or terminal signal meant for the GUI (the window's own SIGTERM/SIGHUP included).
    m_process->setLaunch(common::TrainerProcess::Launch::OwnSession);
    connect(m_process, &common::TrainerProcess::output, this, [this](const QString& text) {
        emit output(text);
        if (isPacking())
            reportPackingProgress();
    });
    connect(m_process, &common::TrainerProcess::finished, this, &TrainingLauncher::stepFinished);
    for (common::TrainerProcess* catalogue : {m_catalog, m_deviceCatalog})
        catalogue->setSeparateChannels(true);  // JSON on stdout, warnings on stderr
    connect(m_catalog, &common::TrainerProcess::finished, this, [this](const common::TrainerProcess::Exit& exit) {
        if (!exit.ok)
            return;  // keep the built-in list
        QList<ModelChoice> models;
        for (const QJsonValue& item : QJsonDocument::fromJson(m_catalog->standardOutput()).array())
            models.append({item[QStringLiteral("name")].toString(), item[QStringLiteral("description")].toString(),
                           item[QStringLiteral("default")].toBool()});
        if (models.isEmpty())
            return;
        m_models = models;
        emit modelsChanged();
    });
    connect(m_deviceCatalog, &common::TrainerProcess::finished, this, [this](const common::TrainerProcess::Exit& exit) {
        if (!exit.ok)
            return;  // keep "cpu"
        QList<DeviceChoice> devices;
        for (const QJsonValue& item : QJsonDocument::fromJson(m_deviceCatalog->standardOutput()).array())
            devices.append({item[QStringLiteral("name")].toString(), item[QStringLiteral("description")].toString(),
                            qint64(item[QStringLiteral("memory_bytes")].toDouble())});
        if (devices.isEmpty())
            return;
        m_devices = devices;
        emit devicesChanged();
    });
}

TrainingLauncher::~TrainingLauncher()
{
    // A run elsewhere goes on there (RemoteTrainer ends only its ssh and rsync).
    // The catalogues are listings (nothing to save): TrainerProcess kills them.
    if (!m_process->isRunning())
        return;
    m_process->disconnect(this);
    if (!m_detached && isPacking())
        return;  // packing saves nothing and is redone by the next start: killed with its object
    // A trainer is never killed by the window: it is left running when the user chose so, and
    // asked to stop (once: a second SIGTERM must not cut its checkpoint short) otherwise. One that
    // has not ended by then is let go, not killed.
    if (!m_detached) {
        stop();
        if (m_process->waitForFinished(kStopWaitMs))
            return;
    }
    m_process->release();
}

void TrainingLauncher::setTrainer(const QString& program)
{
    for (common::TrainerProcess* process : {m_process, m_catalog, m_deviceCatalog})
        process->setProgram(program);
}

QString TrainingLauncher::trainer() const { return m_process->program(); }

QList<TrainingLauncher::ModelChoice> TrainingLauncher::builtInModels()
{
    return {{QStringLiteral("deeplabv3plus-resnet18-256-s16"),
             tr("DeepLabV3+ with a ResNet-18 encoder, 256-channel last stage and a stride-16 skip; bf16 on CPUs that have it"),
             true},
            {QStringLiteral("deeplabv3plus-resnet18-256"),
             tr("DeepLabV3+ with a ResNet-18 encoder, 256-channel last stage (the default until issue 25's last runs)")},
            {QStringLiteral("deeplabv3plus-resnet18"), tr("DeepLabV3+ with a full ResNet-18 encoder (512-channel last stage)")},
            {QStringLiteral("deeplabv3plus"), tr("DeepLabV3+ with a MobileNetV2 encoder")},
            {QStringLiteral("deeplabv3plus-os32"), tr("DeepLabV3+ at output stride 32: 1.25x the training speed on CPUs")},
            {QStringLiteral("deeplabv3plus-slim"), tr("DeepLabV3+, half-width encoder; fastest on CPUs")},
            {QStringLiteral("segnet-tiny"), tr("small SegNet for CPUs")},
            {QStringLiteral("segnet-basic"), tr("SegNet-Basic")},
            {QStringLiteral("segnet"), tr("SegNet with a VGG-16 encoder (GPU)")}};
}

void TrainingLauncher::refreshModels()
{
    if (!m_catalog->isRunning())
        m_catalog->start(common::TrainerArguments::catalogue(QStringLiteral("models")));
    if (!m_deviceCatalog->isRunning())
        m_deviceCatalog->start(common::TrainerArguments::catalogue(QStringLiteral("devices")));
}

TrainingLauncher::Settings TrainingLauncher::settingsOfRun(const QString& runDir, const Settings& fallback)
{
    Settings settings = fallback;
    const auto files = common::layoutOf(runDir);
    if (const auto config = run::RunConfigFile::read(runDir.toStdString())) {
        const auto text = [](const std::optional<std::string>& value, const QString& otherwise) {
            return value ? QString::fromStdString(*value) : otherwise;
        };
        settings.model = text(config->model, settings.model);
        settings.epochs = config->epochs.value_or(settings.epochs);
        // A run written before time budgets trained for its epochs.
        settings.minutes = int(std::lround(config->timeBudgetSeconds.value_or(0.0) / 60.0));
        settings.batch = config->batchSize.value_or(settings.batch);
        settings.optimizer = text(config->optimizer, settings.optimizer);
        settings.learningRate = config->learningRate.value_or(settings.learningRate);
        settings.schedule = text(config->schedule, settings.schedule);
        settings.classWeighting = text(config->classWeighting, settings.classWeighting);
        settings.flip = config->flip.value_or(settings.flip);
        settings.translate = config->translate.value_or(settings.translate);
        settings.colorJitter = config->colorJitter.value_or(settings.colorJitter);
        settings.valEpochs = config->valEpochs.value_or(settings.valEpochs);
        // The crop is not among what RunConfigFile reads: the fallback's (a share of the sides)
        // applies to this run's pack.
    }
    try {
        const pack::PackReader pack(files.trainPack().string(), /*verifyChecksum=*/false);
        settings.height = pack.spec().height;
        settings.width = pack.spec().width;
    } catch (const pack::PackError&) {
        // a run started from a terminal may have its packs elsewhere: keep the fallback size
    }
    return settings;
}

bool TrainingLauncher::resume(const QString& runDir, int epochs, int minutes)
{
    if (isBusy())
        return false;
    if (m_remote->resume(runDir, epochs, minutes)) {  // it trained elsewhere: it goes on there, from its checkpoint there
        m_runDir = runDir;
        m_stopping = false;
        m_step = Step::Remote;
        emit started(runDir);
        return true;
    }
    if (trainer().isEmpty() || !common::layoutOf(runDir).canResume())
        return false;
    m_runDir = runDir;
    m_resumeEpochs = epochs;
    m_resumeMinutes = minutes;
    m_stopping = false;
    emit started(runDir);
    runStep(Step::Resume);
    return true;
}

bool TrainingLauncher::attachRemote(const QString& runDir)
{
    if (isBusy() || !m_remote->attach(runDir))
        return false;
    m_runDir = runDir;
    m_stopping = false;
    m_step = Step::Remote;
    emit started(runDir);
    return true;
}

void TrainingLauncher::startRemote()
{
    m_step = Step::Remote;
    emit packingEnded();
    m_remote->start(m_runDir, *m_settings.where, remoteTrainArguments(m_runDir, m_settings));
}

QStringList TrainingLauncher::remoteTrainArguments(const QString& runDir, const Settings& settings)
{
    Settings there = settings;
    there.devices.clear();  // this computer's devices; the far side's engine chooses its own
    return common::TrainerArguments::train(RemoteTrainer::remoteRunDirFor(*settings.where, runDir), there);
}

QString TrainingLauncher::jobScript(const QString& runDir, const Settings& settings)
{
    if (!settings.where)
        return {};
    std::vector<std::string> arguments;
    for (const QString& argument : remoteTrainArguments(runDir, settings))
        arguments.push_back(argument.toStdString());
    return QString::fromStdString(remote::RemoteCommands::jobScript(
        *settings.where, RemoteTrainer::remoteRunDirFor(*settings.where, runDir).toStdString(), arguments));
}

bool TrainingLauncher::start(const QString& projectFile, const QString& runDir, const Settings& settings)
{
    if (isBusy())
        return false;
    if (trainer().isEmpty()) {
        emit finished(false, common::TrainerProcess::notFoundMessage());
        return false;
    }
    if (!QDir().mkpath(runDir)) {
        emit finished(false, tr("Cannot create the run folder %1").arg(runDir));
        return false;
    }
    m_projectFile = projectFile;
    m_runDir = runDir;
    m_settings = settings;
    m_resumeEpochs = m_resumeMinutes = 0;
    m_stopping = false;
    emit started(runDir);
    runStep(Step::PackTrain);
    return true;
}

void TrainingLauncher::runStep(Step step)
{
    m_step = step;
    const auto files = common::layoutOf(m_runDir);
    QStringList arguments;
    switch (step) {
    case Step::PackTrain:
        arguments = common::TrainerArguments::pack(m_projectFile, QStringLiteral("train"), common::pathOf(files.trainPack()),
                                                   m_settings.height, m_settings.width);
        break;
    case Step::PackVal:
        arguments = common::TrainerArguments::pack(m_projectFile, QStringLiteral("val"), common::pathOf(files.valPack()),
                                                   m_settings.height, m_settings.width);
        break;
    case Step::Train:
        arguments = common::TrainerArguments::train(m_runDir, m_settings);
        break;
    case Step::Resume:
        arguments = common::TrainerArguments::resume(m_runDir, m_resumeEpochs, m_resumeMinutes);
        break;
    case Step::Idle:
    case Step::Remote:  // RemoteTrainer's steps
        return;
    }
    m_lastPackingReport.clear();
    if (step == Step::Train)
        emit packingEnded();
    if (!m_process->start(arguments)) {
        finish(false, common::TrainerProcess::notFoundMessage());
        return;
    }
    emit output(QStringLiteral("$ %1\n").arg(m_process->commandLine()));
}

void TrainingLauncher::stepFinished(const common::TrainerProcess::Exit& exit)
{
    if (m_step == Step::Idle)
        return;
    const bool training = m_step == Step::Train || m_step == Step::Resume;
    // Stop, or "stop after this epoch" (which the trainer honours on its own time).
    if (training && exit.stopped) {
        finish(false, exit.message);
        return;
    }
    if (m_stopping && !exit.failedToStart) {
        finish(false, tr("Stopped."));
        return;
    }
    if (!exit.ok) {
        finish(false, exit.message);
        return;
    }
    switch (m_step) {
    case Step::PackTrain:
        runStep(Step::PackVal);
        break;
    case Step::PackVal:
        m_settings.where ? startRemote() : runStep(Step::Train);
        break;
    default:
        finish(true, tr("Training finished."));
    }
}

bool TrainingLauncher::stopAfterEpoch()
{
    // Only the trainer handles SIGUSR1; for a pack step it would be the end of the process.
    if (m_step == Step::Remote)
        return m_remote->stopAfterEpoch();
    return (m_step == Step::Train || m_step == Step::Resume) && m_process->stopAfterEpoch();
}

void TrainingLauncher::stop()
{
    // Idempotent: the trainer is already saving its checkpoint after the first request.
    if (m_step == Step::Remote) {  // RemoteTrainer keeps it idempotent (and lets a failed one be asked again)
        m_remote->stop();
        return;
    }
    if (!isBusy() || m_stopping || !m_process->isRunning())
        return;
    m_stopping = true;
    m_process->terminate();
}

bool TrainingLauncher::isStopping() const
{
    return m_step == Step::Remote ? m_remote->isStopping() : m_stopping;
}

bool TrainingLauncher::isTraining() const
{
    return ((m_step == Step::Train || m_step == Step::Resume) && m_process->isRunning()) ||
           (m_step == Step::Remote && m_remote->isTraining());
}

void TrainingLauncher::keepRunningInBackground()
{
    if (isTraining())
        m_detached = true;
}

std::optional<qint64> TrainingLauncher::liveTrainerOf(const QString& runDir)
{
    if (runDir.isEmpty())
        return std::nullopt;
    // RunLock's file names its holder: "pid N on HOST since ...". The pid counts only while it
    // is alive on this host and is a segstudio-train (not a stranger that reused the number).
    QFile lock(common::pathOf(common::layoutOf(runDir).lockFile()));
    if (!lock.open(QIODevice::ReadOnly))
        return std::nullopt;
    static const QRegularExpression holder(QStringLiteral("^pid (\\d+) on (\\S+)"));
    const QRegularExpressionMatch match = holder.match(QString::fromUtf8(lock.readLine()));
    if (!match.hasMatch() || match.captured(2) != QSysInfo::machineHostName())
        return std::nullopt;
    const qint64 pid = match.captured(1).toLongLong();
    QFile commandLine(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (pid <= 0 || ::kill(pid_t(pid), 0) != 0 || !commandLine.open(QIODevice::ReadOnly))
        return std::nullopt;
    if (!commandLine.readAll().contains("segstudio-train"))
        return std::nullopt;
    return pid;
}

void TrainingLauncher::reportPackingProgress()
{
    // segstudio-train pack rewrites "packing done/total" in place every 25 images. The step's
    // tail is searched, not the chunk just read: a chunk may end inside a number.
    static const QRegularExpression progress(QStringLiteral("packing (\\d+)/(\\d+)(?=[\r\n])"));
    QRegularExpressionMatch last;
    for (auto it = progress.globalMatch(m_process->tail().right(256)); it.hasNext();)
        last = it.next();
    if (!last.hasMatch())
        return;
    // The tail still holds the last line when more output comes (the "packed" summary): say each
    // state of the progress once.
    const QString split = m_step == Step::PackTrain ? QStringLiteral("train") : QStringLiteral("val");
    const QString reported = split + last.captured(0);
    if (reported == m_lastPackingReport)
        return;
    m_lastPackingReport = reported;
    emit packingProgress(split, last.captured(1).toInt(), last.captured(2).toInt());
}

void TrainingLauncher::finish(bool ok, const QString& message)
{
    if (m_step == Step::Idle)
        return;
    const bool packing = isPacking();
    m_step = Step::Idle;
    if (packing)
        emit packingEnded();
    emit finished(ok, message);
}

}  // namespace segstudio::ui::training
