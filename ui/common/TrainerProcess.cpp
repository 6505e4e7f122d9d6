#include "TrainerProcess.h"

#include "run/ExitCode.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <csignal>
#include <unistd.h>

namespace segstudio::ui::common {

namespace {

constexpr int kTailChars = 4096;  // a few lines: enough to find the error line
constexpr int kKillWaitMs = 5000;

QString doing(const QString& subcommand)
{
    if (subcommand == QStringLiteral("pack"))
        return TrainerProcess::tr("Packing the project");
    if (subcommand == QStringLiteral("predict"))
        return TrainerProcess::tr("Predicting");
    if (subcommand == QStringLiteral("evaluate"))
        return TrainerProcess::tr("Evaluating");
    if (subcommand == QStringLiteral("train"))
        return TrainerProcess::tr("Training");
    if (subcommand == QStringLiteral("export-model"))
        return TrainerProcess::tr("Exporting the model");
    return TrainerProcess::tr("segstudio-train %1").arg(subcommand);
}

}  // namespace

TrainerProcess::TrainerProcess(QObject* parent) : QObject(parent), m_process(new QProcess(this)), m_program(find())
{
    connect(m_process, &QProcess::readyReadStandardOutput, this, &TrainerProcess::readOutput);
    connect(m_process, &QProcess::readyReadStandardError, this, &TrainerProcess::readOutput);
    connect(m_process, &QProcess::finished, this, &TrainerProcess::processFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        Exit exit;
        exit.failedToStart = true;
        exit.message = tr("Cannot start %1: %2").arg(m_program, m_process->errorString());
        emit finished(exit);
    });
}

TrainerProcess::~TrainerProcess()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    kill();
}

QString TrainerProcess::find()
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

bool TrainerProcess::start(const QStringList& arguments)
{
    if (!m_process || isRunning() || arguments.isEmpty())
        return false;
    if (m_program.isEmpty())
        return false;
    m_subcommand = arguments.first();
    m_commandLine = QStringLiteral("%1 %2").arg(QFileInfo(m_program).fileName(), arguments.join(QLatin1Char(' ')));
    m_tail.clear();
    m_standardOutput.clear();
    m_process->setProcessChannelMode(m_separate ? QProcess::SeparateChannels : QProcess::MergedChannels);
    switch (m_launch) {
    case Launch::Attached:
        m_process->setChildProcessModifier({});
        break;
    case Launch::OwnSession:
        m_process->setChildProcessModifier([] { ::setsid(); });
        break;
    case Launch::LowestPriority:
        m_process->setChildProcessModifier([] { [[maybe_unused]] const int ignored = ::nice(19); });
        break;
    }
    m_process->start(m_program, arguments);
    return true;
}

bool TrainerProcess::isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }

qint64 TrainerProcess::processId() const { return m_process ? m_process->processId() : 0; }

void TrainerProcess::readOutput()
{
    if (m_separate)
        m_standardOutput += m_process->readAllStandardOutput();
    const QString text = QString::fromLocal8Bit(m_separate ? m_process->readAllStandardError() : m_process->readAll());
    if (text.isEmpty())
        return;
    m_tail = (m_tail + text).right(kTailChars);
    emit output(text);
}

void TrainerProcess::processFinished(int exitCode, QProcess::ExitStatus status)
{
    readOutput();
    emit finished(describe(m_subcommand, status, exitCode, m_tail));
}

TrainerProcess::Exit TrainerProcess::describe(const QString& subcommand, QProcess::ExitStatus status, int exitCode,
                                              const QString& tail)
{
    Exit exit;
    if (status != QProcess::NormalExit) {
        exit.crashed = true;
        exit.message = tr("segstudio-train crashed");
        return exit;
    }
    exit.code = exitCode;
    exit.ok = exitCode == run::kExitOk;
    const QString reason = errorLine(tail);
    switch (exitCode) {
    case run::kExitOk:
        exit.message = tr("%1 finished.").arg(doing(subcommand));
        break;
    case run::kExitStopped:
        exit.stopped = true;
        exit.message = tr("Stopped; the checkpoint was saved: Resume continues the run.");
        break;
    case run::kExitDiverged:
        exit.message = tr("Training diverged (NaN loss); see the log.");
        break;
    case run::kExitPeerTimeout:
        exit.message = tr("A data-parallel process stopped answering (a rank hung or died); the last checkpoint is "
                          "kept: Resume continues the run.");
        break;
    case run::kExitRunBusy:
        exit.message = tr("Another segstudio-train is using this run folder; nothing was changed.");
        break;
    default:
        exit.message = reason.isEmpty() ? tr("%1 failed (exit code %2); see the log.").arg(doing(subcommand)).arg(exitCode)
                                        : tr("%1 failed: %2").arg(doing(subcommand), reason);
    }
    return exit;
}

QString TrainerProcess::notFoundMessage()
{
    return tr("segstudio-train was not found next to the application or on PATH");
}

QString TrainerProcess::errorLine(const QString& tail)
{
    // segstudio-train prints its error as "segstudio-train: <file>: <problem>" as its last word.
    const QStringList lines = tail.split(QRegularExpression(QStringLiteral("[\r\n]")), Qt::SkipEmptyParts);
    const QString prefix = QStringLiteral("segstudio-train: ");
    for (auto line = lines.crbegin(); line != lines.crend(); ++line)
        if (line->startsWith(prefix))
            return line->mid(prefix.size()).trimmed();
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

void TrainerProcess::terminate()
{
    if (isRunning())
        m_process->terminate();
}

bool TrainerProcess::stopAfterEpoch()
{
    return m_process && m_process->state() == QProcess::Running && ::kill(pid_t(m_process->processId()), SIGUSR1) == 0;
}

void TrainerProcess::kill()
{
    if (!isRunning())
        return;
    m_process->kill();
    m_process->waitForFinished(kKillWaitMs);
}

bool TrainerProcess::waitForFinished(int milliseconds) { return !isRunning() || m_process->waitForFinished(milliseconds); }

void TrainerProcess::release()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    if (m_process->state() == QProcess::NotRunning)
        return;
    // Deliberately not deleted: QProcess's destructor would send SIGKILL. The process is its
    // own; the object stays with nothing to watch.
    m_process->setParent(nullptr);
    m_process = nullptr;
}

}  // namespace segstudio::ui::common
