#include "RemoteTrainer.h"

#include "common/RunLayoutOf.h"
#include "common/TrainerArguments.h"
#include "run/FileError.h"
#include "run/RunProgress.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace segstudio::ui::training {

namespace {

constexpr int kLongestRetryMs = 30000;

QStringList argumentsOf(const remote::RemoteCommands::Command& command)
{
    QStringList arguments;
    for (std::size_t i = 1; i < command.size(); ++i)
        arguments << QString::fromStdString(command[i]);
    return arguments;
}

std::vector<std::string> wordsOf(const QStringList& list)
{
    std::vector<std::string> words;
    for (const QString& word : list)
        words.push_back(word.toStdString());
    return words;
}

}  // namespace

RemoteTrainer::RemoteTrainer(QObject* parent) : QObject(parent), m_process(new QProcess(this)), m_control(new QProcess(this))
{
    m_wait.setSingleShot(true);
    connect(&m_wait, &QTimer::timeout, this, [this] { runStep(Step::MirrorLogs); });
    connect(m_process, &QProcess::finished, this, &RemoteTrainer::stepFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            stepFinished(-1, QProcess::CrashExit);
    });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] { m_errors += m_process->readAllStandardError(); });
    connect(m_control, &QProcess::finished, this, &RemoteTrainer::controlFinished);
}

RemoteTrainer::~RemoteTrainer()
{
    // ssh and rsync here end with this object; the run there goes on (attach() finds it again).
    for (QProcess* process : {m_process, m_control}) {
        process->disconnect(this);
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished(5000);
        }
    }
}

QString RemoteTrainer::remoteRunDirFor(const remote::RemoteTarget& target, const QString& localRunDir)
{
    return QString::fromStdString(remote::RemoteCommands::remoteRunDir(target, QFileInfo(localRunDir).fileName().toStdString()));
}

void RemoteTrainer::start(const QString& localRunDir, const remote::RemoteTarget& target, const QStringList& trainArguments)
{
    if (isActive())
        return;
    m_localRunDir = localRunDir;
    m_target = target;
    m_remoteRunDir = remoteRunDirFor(target, localRunDir);
    m_trainArguments = trainArguments;
    m_record.reset();
    m_ended = m_stopping = m_stopQueued = false;
    m_connected = true;
    m_failures = 0;
    emit output(tr("Training on %1, in %2 there.\n").arg(QString::fromStdString(target.describe()), m_remoteRunDir));
    runStep(Step::MakeDir);
}

std::optional<remote::RemoteRunRecord> RemoteTrainer::recordOf(const QString& localRunDir)
{
    try {
        return remote::RemoteRunRecord::read(localRunDir.toStdString());
    } catch (const run::FileError&) {
        return std::nullopt;
    }
}

bool RemoteTrainer::resume(const QString& localRunDir, int epochs, int minutes)
{
    const auto record = isActive() ? std::nullopt : recordOf(localRunDir);
    if (!record)
        return false;
    m_localRunDir = localRunDir;
    m_target = record->target;
    m_remoteRunDir = QString::fromStdString(record->remoteRunDir);
    m_trainArguments = common::TrainerArguments::resume(m_remoteRunDir, epochs, minutes);
    m_record.reset();  // the new trainer's, once started
    m_ended = m_stopping = m_stopQueued = false;
    m_connected = true;
    m_failures = 0;
    emit output(tr("Resuming on %1, in %2 there.\n").arg(QString::fromStdString(m_target.describe()), m_remoteRunDir));
    runStep(Step::Start);  // the packs and the checkpoint are there already
    return true;
}

bool RemoteTrainer::attach(const QString& localRunDir)
{
    if (isActive())
        return false;
    std::optional<remote::RemoteRunRecord> record;
    try {
        record = remote::RemoteRunRecord::read(localRunDir.toStdString());
    } catch (const run::FileError& error) {
        emit output(QString::fromStdString(error.what()) + QLatin1Char('\n'));
        return false;
    }
    if (!record)
        return false;
    m_localRunDir = localRunDir;
    m_record = record;
    m_target = record->target;
    m_remoteRunDir = QString::fromStdString(record->remoteRunDir);
    m_ended = m_stopping = m_stopQueued = false;
    m_connected = true;
    m_failures = 0;
    emit output(tr("Following the run there: %1.\n").arg(QString::fromStdString(record->handle())));
    emit started(QString::fromStdString(record->handle()));
    runStep(Step::MirrorLogs);
    return true;
}

void RemoteTrainer::runStep(Step step)
{
    m_step = step;
    const std::string runDir = m_remoteRunDir.toStdString();
    const std::string local = m_localRunDir.toStdString();
    switch (step) {
    case Step::MakeDir:
        run(remote::RemoteCommands::ssh(m_target, remote::RemoteCommands::makeRunDir(runDir)));
        break;
    case Step::Send: {
        const auto files = common::layoutOf(m_localRunDir);
        std::vector<std::string> packs;
        for (const auto& pack : {files.trainPack(), files.valPack()})
            if (QFileInfo::exists(common::pathOf(pack)))
                packs.push_back(pack.string());
        auto command = remote::RemoteCommands::send(m_target, packs, runDir);
        command.insert(command.begin() + 1, "--itemize-changes");  // the log says what went
        run(command);
        break;
    }
    case Step::Start: {
        const auto arguments = wordsOf(m_trainArguments);
        const bool slurm = m_target.kind == remote::RemoteTarget::Kind::Slurm;
        const QByteArray script =
            slurm ? QByteArray::fromStdString(remote::RemoteCommands::jobScript(m_target, runDir, arguments)) : QByteArray();
        run(remote::RemoteCommands::ssh(m_target, remote::RemoteCommands::start(m_target, runDir, arguments)), script);
        break;
    }
    case Step::MirrorLogs:
        run(remote::RemoteCommands::mirrorLogs(*m_record, local));
        break;
    case Step::MirrorFiles:
        run(remote::RemoteCommands::mirrorFiles(*m_record, local));
        break;
    case Step::Status:
        run(remote::RemoteCommands::ssh(m_target, remote::RemoteCommands::status(*m_record)));
        break;
    case Step::Wait:
    case Step::Idle:
        break;
    }
}

void RemoteTrainer::run(const remote::RemoteCommands::Command& command, const QByteArray& input)
{
    m_errors.clear();
    if (m_step == Step::MakeDir || m_step == Step::Send || m_step == Step::Start)
        emit output(QStringLiteral("$ %1\n").arg(QString::fromStdString(remote::RemoteCommands::quoted(command))));
    m_process->start(QString::fromStdString(command.front()), argumentsOf(command));
    if (!input.isEmpty())
        m_process->write(input);
    m_process->closeWriteChannel();
}

// The last line a command printed: a login shell's greeting (.bashrc) may come before it.
QString RemoteTrainer::lastLine(const QString& printed)
{
    const QStringList lines = printed.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

QString RemoteTrainer::lastErrorLine() const
{
    const QStringList lines = QString::fromUtf8(m_errors).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? tr("no answer") : lines.last().trimmed();
}

void RemoteTrainer::stepFinished(int exitCode, QProcess::ExitStatus status)
{
    const bool ok = status == QProcess::NormalExit && exitCode == 0;
    const QString printed = QString::fromUtf8(m_process->readAllStandardOutput());
    const QString answer = lastLine(printed);
    switch (m_step) {
    case Step::MakeDir:
        // mkdir of the run folder itself fails when it exists: never train into, or mirror home,
        // another run's folder that has the same name there.
        ok ? runStep(Step::Send)
           : finish(false, tr("Cannot make the run folder %1 on %2 (a run of that name there already, or the host cannot be "
                              "reached): %3")
                               .arg(m_remoteRunDir, QString::fromStdString(m_target.destination()), lastErrorLine()));
        break;
    case Step::Send:
        if (!printed.trimmed().isEmpty())
            emit output(printed);
        ok ? runStep(Step::Start) : finish(false, tr("Cannot send the packs: %1").arg(lastErrorLine()));
        break;
    case Step::Start:
        ok ? trainerStarted(answer) : finish(false, tr("The trainer did not start there: %1").arg(lastErrorLine()));
        break;
    case Step::MirrorLogs:
        ok ? runStep(Step::MirrorFiles) : lostConnection(lastErrorLine());
        break;
    case Step::MirrorFiles:
        if (!ok)
            lostConnection(lastErrorLine());
        else if (m_ended)
            finishFromRecords();
        else
            runStep(Step::Status);
        break;
    case Step::Status:
        if (!ok || (answer != QLatin1String("running") && answer != QLatin1String("ended"))) {
            lostConnection(lastErrorLine());
            break;
        }
        if (!m_connected) {
            m_connected = true;
            emit connectionChanged(true, tr("Connected to %1 again.").arg(QString::fromStdString(m_target.destination())));
        }
        m_failures = 0;
        m_ended = answer == QLatin1String("ended");
        m_ended ? runStep(Step::MirrorLogs) : nextRound();  // the last files once it has ended
        break;
    case Step::Wait:
    case Step::Idle:
        break;
    }
}

void RemoteTrainer::trainerStarted(const QString& printed)
{
    remote::RemoteRunRecord record;
    record.target = m_target;
    record.remoteRunDir = m_remoteRunDir.toStdString();
    const QString handle = printed.trimmed().section(QLatin1Char(';'), 0, 0);  // sbatch --parsable: "ID[;cluster]"
    if (m_target.kind == remote::RemoteTarget::Kind::Slurm)
        record.jobId = handle.toStdString();
    else
        record.pid = handle.toLongLong();
    if (handle.isEmpty() || (m_target.kind == remote::RemoteTarget::Kind::Ssh && record.pid <= 0)) {
        finish(false, tr("The trainer did not start there: it printed no %1 (\"%2\")")
                          .arg(m_target.kind == remote::RemoteTarget::Kind::Slurm ? tr("job id") : tr("process id"), printed.trimmed()));
        return;
    }
    try {
        record.write(m_localRunDir.toStdString());  // a reopened project finds the run again
    } catch (const run::FileError& error) {
        emit output(tr("The run trains there, but its record could not be written here: %1\n").arg(QString::fromStdString(error.what())));
    }
    m_record = record;
    emit output(tr("Started: %1.\n").arg(QString::fromStdString(record.handle())));
    emit started(QString::fromStdString(record.handle()));
    if (m_stopping)  // Stop came while it was starting: it is stopped now, and followed to its end
        sendStop();
    runStep(Step::MirrorLogs);
}

void RemoteTrainer::lostConnection(const QString& why)
{
    ++m_failures;
    const int delay = std::min(kLongestRetryMs, m_interval << std::min(m_failures - 1, 4));  // 2, 4, 8, 16, 30 s
    const QString message = tr("Connection to %1 lost (%2); the run goes on there; trying again in %3 s.")
                                .arg(QString::fromStdString(m_target.destination()), why)
                                .arg((delay + 999) / 1000);
    m_connected = false;
    emit connectionChanged(false, message);
    m_step = Step::Wait;
    m_wait.start(delay);
}

void RemoteTrainer::nextRound()
{
    m_step = Step::Wait;
    m_wait.start(m_interval);
}

void RemoteTrainer::finishFromRecords()
{
    const auto progress = run::RunProgress::read(common::layoutOf(m_localRunDir).metricsFile());
    const QString reason = QString::fromStdString(progress.reason());
    switch (progress.state()) {
    case run::RunState::Finished:
        finish(true, tr("Training finished (on %1).").arg(QString::fromStdString(m_target.destination())));
        break;
    case run::RunState::Stopped:
        finish(false, reason.isEmpty() ? tr("Stopped.") : reason);
        break;
    default:
        finish(false, reason.isEmpty() ? tr("The trainer there ended without finishing; its output is in %1.out there.")
                                             .arg(m_remoteRunDir)
                                       : reason);
    }
}

void RemoteTrainer::finish(bool ok, const QString& message)
{
    if (m_step == Step::Idle)
        return;
    m_step = Step::Idle;
    m_wait.stop();
    emit finished(ok, message);
}

void RemoteTrainer::control(const std::string& remoteCommand, const QString& what, bool isStop)
{
    emit output(what + QLatin1Char('\n'));
    const auto command = remote::RemoteCommands::ssh(m_target, remoteCommand);
    m_controlIsStop = isStop;
    m_control->start(QString::fromStdString(command.front()), argumentsOf(command));
}

void RemoteTrainer::controlFinished(int code, QProcess::ExitStatus status)
{
    const QString said = QString::fromUtf8(m_control->readAllStandardError()).trimmed();
    const bool failed = status != QProcess::NormalExit || code != 0;
    if (failed)
        emit output(tr("Could not reach the trainer there (%1): %2\n").arg(code).arg(said.isEmpty() ? tr("no answer") : said));
    if (failed && m_controlIsStop) {
        // The stop did not get there. While the link is down, Stop lets the run go: it trains on
        // there, and the panel follows it again when the project opens (its record stays).
        m_stopping = false;
        if (!m_connected) {
            finish(false, tr("Could not reach %1 to stop the run; it may go on there. The Training panel follows it again "
                             "when the project opens.")
                              .arg(QString::fromStdString(m_target.destination())));
            return;
        }
    }
    if (m_stopQueued && isTraining()) {  // asked while "stop after this epoch" was on its way
        m_stopQueued = false;
        sendStop();
    }
}

void RemoteTrainer::sendStop()
{
    if (m_control->state() != QProcess::NotRunning) {
        m_stopQueued = true;
        return;
    }
    control(remote::RemoteCommands::stop(*m_record),
            tr("Stopping %1: the trainer writes its checkpoint there…").arg(QString::fromStdString(m_record->handle())),
            /*isStop=*/true);
}

void RemoteTrainer::stop()
{
    if (!isActive() || m_stopping)
        return;
    if (!m_record && m_step != Step::Start) {  // nothing runs there yet: the next step is not taken
        m_process->kill();
        m_process->waitForFinished(5000);  // its exit belongs to this run, not to the next start()
        finish(false, tr("Stopped."));
        return;
    }
    m_stopping = true;
    if (m_record)
        sendStop();  // else trainerStarted() sends it as soon as the trainer there is known
}

bool RemoteTrainer::stopAfterEpoch()
{
    if (!isTraining() || m_control->state() != QProcess::NotRunning)
        return false;
    control(remote::RemoteCommands::stopAfterEpoch(*m_record),
            tr("Asking %1 to stop after this epoch.").arg(QString::fromStdString(m_record->handle())), /*isStop=*/false);
    return true;
}

}  // namespace segstudio::ui::training
