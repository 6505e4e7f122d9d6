#include "TrainingLauncher.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

namespace segstudio::ui {

namespace {
constexpr int kExitStopped = 130;  // docs/ENGINE.md
constexpr int kExitDiverged = 3;
}

TrainingLauncher::TrainingLauncher(QObject* parent) : QObject(parent), m_process(new QProcess(this)), m_program(findTrainer())
{
    m_models = builtInModels();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::readyRead, this, [this] {
        const QString text = QString::fromLocal8Bit(m_process->readAll());
        remember(text);
        emit output(text);
    });
    connect(m_process, &QProcess::finished, this, &TrainingLauncher::stepFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(false, tr("Cannot start %1: %2").arg(m_program, m_process->errorString()));
    });
}

TrainingLauncher::~TrainingLauncher()
{
    // Leaving a trainer running after the window closed would be a surprise: ask it to stop (it
    // checkpoints) and give it a moment before the QProcess destructor kills it.
    if (m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        m_process->terminate();
        m_process->waitForFinished(5000);
    }
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
    const QDir dir(runDir);
    QStringList arguments{QStringLiteral("train"), QStringLiteral("--train-pack"), dir.filePath(QStringLiteral("train.pack")),
                          QStringLiteral("--val-pack"), dir.filePath(QStringLiteral("val.pack")), QStringLiteral("-o"), runDir};
    // Only what the user chose; everything else is the engine's defaults, which learn well.
    if (!settings.model.isEmpty())
        arguments << QStringLiteral("--model") << settings.model;
    arguments << QStringLiteral("--epochs") << QString::number(settings.epochs) << QStringLiteral("--batch")
              << QString::number(settings.batch);
    return arguments;
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
    m_stopping = false;
    emit started(runDir);
    runStep(Step::PackTrain);
    return true;
}

void TrainingLauncher::runStep(Step step)
{
    m_step = step;
    const QDir dir(m_runDir);
    QStringList arguments;
    switch (step) {
    case Step::PackTrain:
        arguments = packArguments(m_projectFile, QStringLiteral("train"), dir.filePath(QStringLiteral("train.pack")), m_settings);
        break;
    case Step::PackVal:
        arguments = packArguments(m_projectFile, QStringLiteral("val"), dir.filePath(QStringLiteral("val.pack")), m_settings);
        break;
    case Step::Train:
        arguments = trainArguments(m_runDir, m_settings);
        break;
    case Step::Idle:
        return;
    }
    m_stepTail.clear();
    emit output(QStringLiteral("$ %1 %2\n").arg(QFileInfo(m_program).fileName(), arguments.join(QLatin1Char(' '))));
    m_process->start(m_program, arguments);
}

void TrainingLauncher::stepFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_step == Step::Idle)
        return;
    if (m_stopping) {
        finish(false, m_step == Step::Train && exitCode == kExitStopped
                          ? tr("Stopped; the last checkpoint was saved (resume with segstudio-train train --resume).")
                          : tr("Stopped."));
        return;
    }
    if (status != QProcess::NormalExit) {
        finish(false, tr("segstudio-train crashed"));
        return;
    }
    if (exitCode != 0) {
        const QString what = m_step == Step::Train ? tr("Training failed") : tr("Packing the project failed");
        const QString reason = failureReason();
        finish(false, exitCode == kExitDiverged ? tr("Training diverged (NaN loss); see the log.")
                      : reason.isEmpty()        ? tr("%1 (exit code %2); see the log.").arg(what).arg(exitCode)
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

void TrainingLauncher::stop()
{
    if (!isBusy() || m_process->state() == QProcess::NotRunning)
        return;
    m_stopping = true;
    m_process->terminate();
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

void TrainingLauncher::finish(bool ok, const QString& message)
{
    if (m_step == Step::Idle)
        return;
    m_step = Step::Idle;
    emit finished(ok, message);
}

}  // namespace segstudio::ui
