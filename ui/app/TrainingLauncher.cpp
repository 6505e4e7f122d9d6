#include "TrainingLauncher.h"

#include <cmath>

#include "pack/PackError.h"
#include "pack/PackReader.h"
#include "run/ExitCode.h"
#include "run/RunConfigFile.h"
#include "run/RunLayout.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSysInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>

#include <csignal>

namespace segstudio::ui {

namespace {

QString path(const std::filesystem::path& file) { return QString::fromStdString(file.string()); }

run::RunLayout layoutOf(const QString& runDir) { return run::RunLayout(runDir.toStdString()); }

}  // namespace

TrainingLauncher::TrainingLauncher(QObject* parent) : QObject(parent), m_process(new QProcess(this)), m_program(findTrainer())
{
    m_models = builtInModels();
    m_devices.append({QStringLiteral("cpu"), QString(), 0});
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // Its own session: a trainer the user keeps running after the window closes gets no hangup
    // or terminal signal meant for the GUI (the window's own SIGTERM/SIGHUP included).
    m_process->setChildProcessModifier([] { ::setsid(); });
    connect(m_process, &QProcess::readyRead, this, [this] {
        const QString text = QString::fromLocal8Bit(m_process->readAll());
        remember(text);
        emit output(text);
        if (isPacking())
            reportPackingProgress();
    });
    connect(m_process, &QProcess::finished, this, &TrainingLauncher::stepFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(false, tr("Cannot start %1: %2").arg(m_program, m_process->errorString()));
    });
}

TrainingLauncher::~TrainingLauncher()
{
    for (QProcess* catalog : {m_catalog, m_deviceCatalog})
        if (catalog && catalog->state() != QProcess::NotRunning) {
            catalog->disconnect(this);
            catalog->kill();  // a listing: nothing to save
            catalog->waitForFinished(1000);
        }
    if (m_process->state() == QProcess::NotRunning)
        return;
    m_process->disconnect(this);
    if (!m_detached && isPacking()) {
        m_process->kill();  // packing saves nothing and is redone by the next start
        m_process->waitForFinished(5000);
        return;
    }
    // A trainer is never killed by the window: it is left running when the user chose so, and
    // asked to stop (once: a second SIGTERM must not cut its checkpoint short) otherwise. One that
    // has not ended by then is let go, not killed: QProcess's destructor would send SIGKILL.
    if (!m_detached) {
        stop();
        if (m_process->waitForFinished(kStopWaitMs))
            return;
    }
    m_process->setParent(nullptr);
    m_process = nullptr;  // deliberately not deleted (see above); the process is in its own session
}

QList<TrainingLauncher::ModelChoice> TrainingLauncher::builtInModels()
{
    return {{QStringLiteral("deeplabv3plus"), tr("DeepLabV3+ with a MobileNetV2 encoder"), true},
            {QStringLiteral("deeplabv3plus-slim"), tr("DeepLabV3+, half-width encoder; fastest on CPUs")},
            {QStringLiteral("segnet-tiny"), tr("small SegNet for CPUs")},
            {QStringLiteral("segnet-basic"), tr("SegNet-Basic")},
            {QStringLiteral("segnet"), tr("SegNet with a VGG-16 encoder (GPU)")}};
}

void TrainingLauncher::refreshModels()
{
    if (m_program.isEmpty() || (m_catalog && m_catalog->state() != QProcess::NotRunning))
        return;
    if (!m_catalog) {
        m_catalog = new QProcess(this);
        connect(m_catalog, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
            if (status != QProcess::NormalExit || exitCode != 0)
                return;  // keep the built-in list
            const QJsonArray items = QJsonDocument::fromJson(m_catalog->readAllStandardOutput()).array();
            QList<ModelChoice> models;
            for (const QJsonValue& item : items)
                models.append({item[QStringLiteral("name")].toString(), item[QStringLiteral("description")].toString(),
                               item[QStringLiteral("default")].toBool()});
            if (models.isEmpty())
                return;
            m_models = models;
            emit modelsChanged();
        });
    }
    m_catalog->start(m_program, {QStringLiteral("models"), QStringLiteral("--json")});
    if (!m_deviceCatalog) {
        m_deviceCatalog = new QProcess(this);
        connect(m_deviceCatalog, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
            if (status != QProcess::NormalExit || exitCode != 0)
                return;  // keep "cpu"
            QList<DeviceChoice> devices;
            for (const QJsonValue& item : QJsonDocument::fromJson(m_deviceCatalog->readAllStandardOutput()).array())
                devices.append({item[QStringLiteral("name")].toString(), item[QStringLiteral("description")].toString(),
                                qint64(item[QStringLiteral("memory_bytes")].toDouble())});
            if (devices.isEmpty())
                return;
            m_devices = devices;
            emit devicesChanged();
        });
    }
    if (m_deviceCatalog->state() == QProcess::NotRunning)
        m_deviceCatalog->start(m_program, {QStringLiteral("devices"), QStringLiteral("--json")});
}

QString TrainingLauncher::findTrainer()
{
    const QString name = QStringLiteral("segstudio-train");
    const QDir appDir(QCoreApplication::applicationDirPath());
    for (const QString& candidate : {appDir.filePath(QStringLiteral("../segstudio-train/") + name), appDir.filePath(name)}) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return info.canonicalFilePath();
    }
    return QStandardPaths::findExecutable(name);
}

QStringList TrainingLauncher::packArguments(const QString& projectFile, const QString& split, const QString& packFile,
                                            const Settings& settings)
{
    return {QStringLiteral("pack"), QStringLiteral("--project"), projectFile, QStringLiteral("--split"), split,
            QStringLiteral("--out"), packFile, QStringLiteral("--height"), QString::number(settings.height),
            QStringLiteral("--width"), QString::number(settings.width)};
}

QStringList TrainingLauncher::trainArguments(const QString& runDir, const Settings& settings)
{
    const auto files = layoutOf(runDir);
    QStringList arguments{QStringLiteral("train"), QStringLiteral("--train-pack"), path(files.trainPack()),
                          QStringLiteral("--val-pack"), path(files.valPack()), QStringLiteral("-o"), runDir};
    // Only what the user chose; everything else is the engine's defaults, which learn well.
    if (settings.recipe)
        arguments << QStringLiteral("--recipe");
    if (!settings.model.isEmpty())
        arguments << QStringLiteral("--model") << settings.model;
    if (settings.minutes > 0)
        arguments << QStringLiteral("--time-budget") << QStringLiteral("%1m").arg(settings.minutes);
    else
        arguments << QStringLiteral("--epochs") << QString::number(settings.epochs);
    arguments << QStringLiteral("--batch") << QString::number(settings.batch);
    const auto option = [&arguments](const char* name, const QString& value) {
        if (!value.isEmpty())
            arguments << QString::fromLatin1(name) << value;
    };
    option("--optimizer", settings.optimizer);
    option("--lr", settings.learningRate > 0 ? QString::number(settings.learningRate, 'g', 6) : QString());
    option("--schedule", settings.schedule);
    option("--class-weighting", settings.classWeighting);
    if (!settings.flip)
        arguments << QStringLiteral("--no-flip");
    if (settings.translate != Settings().translate)
        option("--translate", QString::number(settings.translate));
    if (settings.valEpochs != Settings().valEpochs)
        option("--val-epochs", QString::number(settings.valEpochs));
    // One device: --device; several: one process each, data parallel (--devices).
    if (settings.devices.size() == 1)
        option("--device", settings.devices.first());
    else if (settings.devices.size() > 1)
        option("--devices", settings.devices.join(QLatin1Char(',')));
    return arguments;
}

QStringList TrainingLauncher::resumeArguments(const QString& runDir, int epochs)
{
    QStringList arguments{QStringLiteral("train"), QStringLiteral("--resume"), runDir};
    if (epochs > 0)
        arguments << QStringLiteral("--epochs") << QString::number(epochs);
    return arguments;
}

TrainingLauncher::Settings TrainingLauncher::settingsOfRun(const QString& runDir, const Settings& fallback)
{
    Settings settings = fallback;
    const auto files = layoutOf(runDir);
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
        settings.valEpochs = config->valEpochs.value_or(settings.valEpochs);
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

bool TrainingLauncher::resume(const QString& runDir, int epochs)
{
    if (isBusy() || m_program.isEmpty() || !layoutOf(runDir).canResume())
        return false;
    m_runDir = runDir;
    m_resumeEpochs = epochs;
    m_stopping = false;
    emit started(runDir);
    runStep(Step::Resume);
    return true;
}

bool TrainingLauncher::start(const QString& projectFile, const QString& runDir, const Settings& settings)
{
    if (isBusy())
        return false;
    if (m_program.isEmpty()) {
        emit finished(false, tr("segstudio-train was not found next to the application or on PATH"));
        return false;
    }
    if (!QDir().mkpath(runDir)) {
        emit finished(false, tr("Cannot create the run folder %1").arg(runDir));
        return false;
    }
    m_projectFile = projectFile;
    m_runDir = runDir;
    m_settings = settings;
    m_resumeEpochs = 0;
    m_stopping = false;
    emit started(runDir);
    runStep(Step::PackTrain);
    return true;
}

void TrainingLauncher::runStep(Step step)
{
    m_step = step;
    const auto files = layoutOf(m_runDir);
    QStringList arguments;
    switch (step) {
    case Step::PackTrain:
        arguments = packArguments(m_projectFile, QStringLiteral("train"), path(files.trainPack()), m_settings);
        break;
    case Step::PackVal:
        arguments = packArguments(m_projectFile, QStringLiteral("val"), path(files.valPack()), m_settings);
        break;
    case Step::Train:
        arguments = trainArguments(m_runDir, m_settings);
        break;
    case Step::Resume:
        arguments = resumeArguments(m_runDir, m_resumeEpochs);
        break;
    case Step::Idle:
        return;
    }
    m_stepTail.clear();
    m_lastPackingReport.clear();
    if (step == Step::Train)
        emit packingEnded();
    emit output(QStringLiteral("$ %1 %2\n").arg(QFileInfo(m_program).fileName(), arguments.join(QLatin1Char(' '))));
    m_process->start(m_program, arguments);
}

void TrainingLauncher::stepFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_step == Step::Idle)
        return;
    const bool training = m_step == Step::Train || m_step == Step::Resume;
    if (training && status == QProcess::NormalExit && exitCode == run::kExitStopped) {
        // Stop, or "stop after this epoch" (which the trainer honours on its own time).
        finish(false, tr("Stopped; the checkpoint was saved: Resume continues the run."));
        return;
    }
    if (m_stopping) {
        finish(false, tr("Stopped."));
        return;
    }
    if (status != QProcess::NormalExit) {
        finish(false, tr("segstudio-train crashed"));
        return;
    }
    if (exitCode != 0) {
        const QString what = training ? tr("Training failed") : tr("Packing the project failed");
        const QString reason = failureReason();
        finish(false, exitCode == run::kExitDiverged ? tr("Training diverged (NaN loss); see the log.")
                      : reason.isEmpty()             ? tr("%1 (exit code %2); see the log.").arg(what).arg(exitCode)
                                                     : tr("%1: %2").arg(what, reason));
        return;
    }
    switch (m_step) {
    case Step::PackTrain:
        runStep(Step::PackVal);
        break;
    case Step::PackVal:
        runStep(Step::Train);
        break;
    default:
        finish(true, tr("Training finished."));
    }
}

bool TrainingLauncher::stopAfterEpoch()
{
    // Only the trainer handles SIGUSR1; for a pack step it would be the end of the process.
    if ((m_step != Step::Train && m_step != Step::Resume) || m_process->state() != QProcess::Running)
        return false;
    return ::kill(pid_t(m_process->processId()), SIGUSR1) == 0;
}

void TrainingLauncher::stop()
{
    // Idempotent: the trainer is already saving its checkpoint after the first request.
    if (!isBusy() || m_stopping || m_process->state() == QProcess::NotRunning)
        return;
    m_stopping = true;
    m_process->terminate();
}

bool TrainingLauncher::isTraining() const
{
    return (m_step == Step::Train || m_step == Step::Resume) && m_process->state() != QProcess::NotRunning;
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
    QFile lock(QString::fromStdString(layoutOf(runDir).lockFile().string()));
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

void TrainingLauncher::remember(const QString& text)
{
    constexpr int kKept = 4096;  // a few lines are enough to find the error line
    m_stepTail = (m_stepTail + text).right(kKept);
}

QString TrainingLauncher::failureReason() const
{
    // segstudio-train prints its error as "segstudio-train: <file>: <problem>" as its last word.
    const QStringList lines = m_stepTail.split(QRegularExpression(QStringLiteral("[\r\n]")), Qt::SkipEmptyParts);
    const QString prefix = QStringLiteral("segstudio-train: ");
    for (auto line = lines.crbegin(); line != lines.crend(); ++line)
        if (line->startsWith(prefix))
            return line->mid(prefix.size()).trimmed();
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

void TrainingLauncher::reportPackingProgress()
{
    // segstudio-train pack rewrites "packing done/total" in place every 25 images. The step's
    // tail is searched, not the chunk just read: a chunk may end inside a number.
    static const QRegularExpression progress(QStringLiteral("packing (\\d+)/(\\d+)(?=[\r\n])"));
    QRegularExpressionMatch last;
    for (auto it = progress.globalMatch(m_stepTail.right(256)); it.hasNext();)
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

}  // namespace segstudio::ui
