#include "TestPacks.h"
#include "TrainerProcess.h"
#include "engine/models/Checkpoint.h"
#include "engine/distributed/Distributed.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <sched.h>
#include <unistd.h>

#include <csignal>

using namespace segstudio::engine;

// Issue 22, the trainer's and the launcher's side: every fault is made for real against the CLI
// as users run it (a second SIGTERM, kill -9 of the launcher, two trainers racing for one run, a
// rank of another job at the rendezvous, a fork() that fails, a stop in the middle of the launch),
// and each test waits for events (a file's content, a signal delivered, a process gone), never
// for a time.
class TestRunSafetyCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void secondSigtermStillStopsGracefully();
    void secondSigtermToTheLauncherStillStopsGracefully();
    void killedLauncherLeavesRankZeroStoppedWithACheckpoint_data();
    void killedLauncherLeavesRankZeroStoppedWithACheckpoint();
    void twoResumesRacingOneIsRefusedNamingTheOther();
    void failedForkIsReportedAtOnce();
    void mixedDevicesAreRefusedBeforeTraining();
    void nonsenseProcessCountsAreRefused();
    void stopDuringTheLaunchEndsCleanly();
    void rankOfAnotherJobIsRefusedAndNamed();

private:
    QProcess* start(const QStringList& arguments, const QProcessEnvironment& extra = {});
    QString finish(QProcess* process, int timeoutMs = 120000);
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QStringList common(const QString& runDir) const;
    QStringList longRun(const QString& runDir) const;
    // Waits (a minute at most) until the run's metrics hold `sessions` run records and a train
    // record after the last of them: that session is training.
    bool waitForTraining(const QString& run, int sessions = 1);
    static std::vector<nlohmann::json> records(const QString& run);
    static nlohmann::json lastState(const QString& run);
    static int checkpointIteration(const QString& run);
    // Waits until the process took the signal (no longer pending), or ended.
    static bool delivered(pid_t pid, int signal);
    static bool gone(pid_t pid);
    static QList<pid_t> processesWithVariable(const QByteArray& assignment);
    static pid_t workerOfRank(qint64 launcher, int rank);
    static bool waitForOutput(QProcess* process, const QString& text, QString& output);
    static int usableCores();

    QTemporaryDir m_dir;
};

void TestRunSafetyCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(SEGSTUDIO_TRAIN_EXE)));
    segstudio::enginetest::writeStripePack(path(QStringLiteral("train.pack")).toStdString(), 8, 32, 32, 4, 1);
}

QProcess* TestRunSafetyCli::start(const QStringList& arguments, const QProcessEnvironment& extra)
{
    return segstudio::enginetest::startTrainer(this, QStringLiteral(SEGSTUDIO_TRAIN_EXE), arguments, extra);
}

QString TestRunSafetyCli::finish(QProcess* process, int timeoutMs)
{
    if (!process->waitForFinished(timeoutMs))
        process->kill();
    process->waitForFinished(10000);
    return QString::fromUtf8(process->readAll());
}

QStringList TestRunSafetyCli::common(const QString& runDir) const
{
    return {QStringLiteral("--train-pack"), path(QStringLiteral("train.pack")), QStringLiteral("-o"), runDir,
            QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--device"), QStringLiteral("cpu"),
            QStringLiteral("--log-interval"), QStringLiteral("1"), QStringLiteral("--model"), QStringLiteral("segnet-tiny"),
            QStringLiteral("--batch"), QStringLiteral("2")};
}

QStringList TestRunSafetyCli::longRun(const QString& runDir) const
{
    return QStringList{QStringLiteral("train"), QStringLiteral("--epochs"), QStringLiteral("100000")} + common(runDir);
}

std::vector<nlohmann::json> TestRunSafetyCli::records(const QString& run)
{
    std::vector<nlohmann::json> all;
    QFile file(run + QStringLiteral("/metrics.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return all;
    for (const QByteArray& line : file.readAll().split('\n')) {
        const auto record = nlohmann::json::parse(line.toStdString(), nullptr, false);
        if (record.is_object())
            all.push_back(record);
    }
    return all;
}

nlohmann::json TestRunSafetyCli::lastState(const QString& run)
{
    nlohmann::json state;
    for (const auto& record : records(run))
        if (record.value("kind", "") == "state")
            state = record;
    return state;
}

int TestRunSafetyCli::checkpointIteration(const QString& run)
{
    return Checkpoint::readState(run.toStdString() + "/checkpoints/last.pt").at("iteration").get<int>();
}

bool TestRunSafetyCli::waitForTraining(const QString& run, int sessions)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        int seen = 0;
        bool training = false;
        for (const auto& record : records(run)) {
            const std::string kind = record.value("kind", "");
            seen += kind == "run";
            training = kind == "train" ? seen >= sessions : training && kind != "run";
        }
        if (training && seen == sessions)
            return true;
        QTest::qWait(20);
    }
    return false;
}

bool TestRunSafetyCli::delivered(pid_t pid, int signal)
{
    // SigPnd (this thread) and ShdPnd (the process) are hex masks, bit signal-1.
    const unsigned long long bit = 1ULL << (signal - 1);
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        QFile status(QStringLiteral("/proc/%1/status").arg(pid));
        if (!status.open(QIODevice::ReadOnly))
            return true;
        bool pending = false;
        for (const QByteArray& line : status.readAll().split('\n'))
            if (line.startsWith("SigPnd:") || line.startsWith("ShdPnd:"))
                pending = pending || (line.mid(7).trimmed().toULongLong(nullptr, 16) & bit);
        if (!pending)
            return true;
    }
    return false;
}

bool TestRunSafetyCli::gone(pid_t pid)
{
    QFile status(QStringLiteral("/proc/%1/stat").arg(pid));
    if (::kill(pid, 0) != 0 || !status.open(QIODevice::ReadOnly))
        return true;
    return QString::fromLatin1(status.readAll()).section(')', 1).trimmed().startsWith(QLatin1Char('Z'));
}

QList<pid_t> TestRunSafetyCli::processesWithVariable(const QByteArray& assignment)
{
    QList<pid_t> found;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile environ(QStringLiteral("/proc/%1/environ").arg(entry));
        if (entry.toInt() > 0 && environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains(assignment) &&
            !gone(pid_t(entry.toInt())))
            found << pid_t(entry.toInt());
    }
    return found;
}

pid_t TestRunSafetyCli::workerOfRank(qint64 launcher, int rank)
{
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (entry.toInt() <= 0 || !stat.open(QIODevice::ReadOnly))
            continue;
        const QStringList fields = QString::fromLatin1(stat.readAll()).section(')', 1).split(' ', Qt::SkipEmptyParts);
        QFile environ(QStringLiteral("/proc/%1/environ").arg(entry));
        if (fields.size() >= 2 && fields[1].toLongLong() == launcher && environ.open(QIODevice::ReadOnly) &&
            environ.readAll().split('\0').contains("RANK=" + QByteArray::number(rank)))
            return pid_t(entry.toInt());
    }
    return 0;
}

bool TestRunSafetyCli::waitForOutput(QProcess* process, const QString& text, QString& output)
{
    QElapsedTimer clock;
    clock.start();
    while (!output.contains(text) && clock.elapsed() < 60000 && process->state() != QProcess::NotRunning) {
        process->waitForReadyRead(100);
        output += QString::fromUtf8(process->readAll());
    }
    output += QString::fromUtf8(process->readAll());
    return output.contains(text);
}

int TestRunSafetyCli::usableCores()
{
    cpu_set_t set;
    return ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

// Item 2: the GUI's Stop, then closing its window, sends SIGTERM twice; the second came while
// the first's checkpoint was being written and killed the trainer (its handler had reset
// SIGTERM to the default). Now every SIGTERM is the same stop request.
void TestRunSafetyCli::secondSigtermStillStopsGracefully()
{
    const QString run = path(QStringLiteral("twice"));
    auto* trainer = start(longRun(run));
    QVERIFY(waitForTraining(run));
    const pid_t pid = pid_t(trainer->processId());
    QCOMPARE(::kill(pid, SIGTERM), 0);
    QVERIFY(delivered(pid, SIGTERM));  // the first was handled: the stop is under way
    ::kill(pid, SIGTERM);
    const QString output = finish(trainer);
    QCOMPARE(trainer->exitStatus(), QProcess::NormalExit);
    QVERIFY2(trainer->exitCode() == 130, qPrintable(output));
    const auto state = lastState(run);
    QCOMPARE(state.value("state", ""), std::string("stopped"));
    QCOMPARE(checkpointIteration(run), state.at("iteration").get<int>());
}

// The same through the launcher, whose second signal used to become SIGKILL for the workers.
// Its workers hold the run folder's lock meanwhile: a trainer started on the same run is refused
// and told who holds it.
void TestRunSafetyCli::secondSigtermToTheLauncherStillStopsGracefully()
{
    const QString run = path(QStringLiteral("launcher-twice"));
    auto* launcher = start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2")} +
                           longRun(run).mid(1));
    QVERIFY(waitForTraining(run));
    const pid_t pid = pid_t(launcher->processId());
    // Something to resume (the end of epoch 1), so that only the lock can refuse the intruder.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(run + QStringLiteral("/checkpoints/last.pt")), 60000);

    auto* intruder = start({QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--threads"),
                            QStringLiteral("1")});
    const QString refused = finish(intruder);
    QVERIFY2(intruder->exitCode() == 5, qPrintable(refused));
    QVERIFY2(refused.contains(QStringLiteral("pid %1 on").arg(pid)), qPrintable(refused));

    QCOMPARE(::kill(pid, SIGTERM), 0);
    QVERIFY(delivered(pid, SIGTERM));
    ::kill(pid, SIGTERM);
    const QString output = finish(launcher);
    QCOMPARE(launcher->exitStatus(), QProcess::NormalExit);
    QVERIFY2(launcher->exitCode() == 130, qPrintable(output));
    const auto state = lastState(run);
    QCOMPARE(state.value("state", ""), std::string("stopped"));
    QCOMPARE(checkpointIteration(run), state.at("iteration").get<int>());
}

void TestRunSafetyCli::killedLauncherLeavesRankZeroStoppedWithACheckpoint_data()
{
    QTest::addColumn<int>("ranks");
    QTest::newRow("1 rank") << 1;  // the launcher was the only reader of rank 0's output
    QTest::newRow("2 ranks") << 2;  // so it is now too: no worker inherits another's pipe
}

// Item 5: the launcher killed (kill -9): its workers get SIGTERM from the kernel; rank 0's next
// progress line then went to a pipe nobody reads, and SIGPIPE killed it before its checkpoint.
void TestRunSafetyCli::killedLauncherLeavesRankZeroStoppedWithACheckpoint()
{
    QFETCH(int, ranks);
    const QString run = path(QStringLiteral("orphaned-%1").arg(ranks));
    auto* launcher = start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QString::number(ranks)} +
                           longRun(run).mid(1));
    QVERIFY(waitForTraining(run));
    QList<pid_t> workers;
    for (int rank = 0; rank < ranks; ++rank)
        workers << workerOfRank(launcher->processId(), rank);
    QVERIFY(!workers.contains(0));
    ::kill(pid_t(launcher->processId()), SIGKILL);
    finish(launcher);
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(workers.begin(), workers.end(), gone), 60000);
    const auto state = lastState(run);
    QCOMPARE(state.value("state", ""), std::string("stopped"));
    QCOMPARE(checkpointIteration(run), state.at("iteration").get<int>());
}

// Item 10: two `train --resume RUN` at once both trained, and the first run's history in
// metrics.jsonl was lost. Now exactly one wins the run folder's lock; the other says who has it.
void TestRunSafetyCli::twoResumesRacingOneIsRefusedNamingTheOther()
{
    const QString run = path(QStringLiteral("raced"));
    const QString first = finish(start(QStringList{QStringLiteral("train"), QStringLiteral("--epochs"), QStringLiteral("1")} +
                                       common(run)));
    QVERIFY2(first.contains(QStringLiteral("finished")), qPrintable(first));
    const auto history = records(run);
    const QStringList resume{QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--epochs"),
                             QStringLiteral("100000"), QStringLiteral("--threads"), QStringLiteral("1")};
    QProcess* racers[2] = {start(resume), start(resume)};
    QVERIFY(racers[0]->waitForStarted() && racers[1]->waitForStarted());
    QElapsedTimer clock;
    clock.start();
    while (racers[0]->state() != QProcess::NotRunning && racers[1]->state() != QProcess::NotRunning &&
           clock.elapsed() < 120000)
        QTest::qWait(50);
    const int loser = racers[0]->state() == QProcess::NotRunning ? 0 : 1;
    QProcess* winner = racers[1 - loser];
    const QString refused = finish(racers[loser], 1000);
    QVERIFY2(racers[loser]->exitCode() == 5, qPrintable(refused));
    QVERIFY2(refused.contains(QStringLiteral("trainer.lock")) &&
                 refused.contains(QStringLiteral("pid %1 on").arg(winner->processId())),
             qPrintable(refused));

    QVERIFY(waitForTraining(run, 2));
    ::kill(pid_t(winner->processId()), SIGTERM);
    const QString stopped = finish(winner);
    QVERIFY2(winner->exitCode() == 130, qPrintable(stopped));
    QCOMPARE(QFileInfo(run + QStringLiteral("/trainer.lock")).size(), 0);  // no name of a trainer gone
    // The first session's records are all still there, in order, and one session followed.
    const auto now = records(run);
    QVERIFY(now.size() > history.size());
    for (std::size_t i = 0; i < history.size(); ++i)
        QCOMPARE(now[i], history[i]);
    QCOMPARE(std::count_if(now.begin(), now.end(), [](const auto& r) { return r.value("kind", "") == "run"; }), 2);
}

// Item 6: a fork() that fails (the process limit) was not noticed: the started ranks waited out
// the rendezvous timeout (here 600 s) for a rank that never came.
void TestRunSafetyCli::failedForkIsReportedAtOnce()
{
    QProcessEnvironment shim;
    shim.insert(QStringLiteral("LD_PRELOAD"), QStringLiteral(SEGSTUDIO_FAILING_FORK));
    shim.insert(QStringLiteral("SEGSTUDIO_TEST_FORK_FAILS_AT"), QStringLiteral("2"));
    const QString run = path(QStringLiteral("no-fork"));
    auto* launcher = start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2"),
                                       QStringLiteral("--timeout"), QStringLiteral("600")} +
                               longRun(run).mid(1),
                           shim);
    QString output;
    QVERIFY2(waitForOutput(launcher, QStringLiteral("rendezvous at"), output), qPrintable(output));
    const QString port = output.section(QStringLiteral("rendezvous at 127.0.0.1:"), 1).section(QLatin1Char('\n'), 0, 0).trimmed();
    output += finish(launcher, 120000);
    QCOMPARE(launcher->exitStatus(), QProcess::NormalExit);
    QVERIFY2(launcher->exitCode() == 1, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("cannot start the worker of rank 1: Resource temporarily unavailable")),
             qPrintable(output));
    QVERIFY2(!output.contains(QStringLiteral("--resume")), qPrintable(output));  // nothing to resume
    QTRY_VERIFY_WITH_TIMEOUT(processesWithVariable("MASTER_PORT=" + port.toLatin1()).isEmpty(), 60000);
}

// Item 6: --devices cpu,cuda:0 gave the ranks different backends (Gloo, NCCL), which never meet.
void TestRunSafetyCli::mixedDevicesAreRefusedBeforeTraining()
{
    auto* launcher = start(QStringList{QStringLiteral("train"), QStringLiteral("--devices"), QStringLiteral("cpu,cuda:0"),
                                       QStringLiteral("--epochs"), QStringLiteral("1")} +
                           common(path(QStringLiteral("mixed"))));
    const QString output = finish(launcher, 60000);
    QVERIFY2(launcher->exitCode() == 1, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("--devices 'cpu,cuda:0': the devices must all be CPUs or all GPUs")),
             qPrintable(output));
    QVERIFY2(!output.contains(QStringLiteral("worker(s)")), qPrintable(output));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("mixed"))));
}

// Item 13: --nproc 0 and -1 trained one process, --nproc 999 kept forking until the OOM killer
// came. Counts below 1 and above the usable cores are refused (--oversubscribe insists).
void TestRunSafetyCli::nonsenseProcessCountsAreRefused()
{
    const int tooMany = usableCores() + 1;
    for (const int count : {0, -1, tooMany}) {
        const QString run = path(QStringLiteral("nproc%1").arg(count));
        auto* launcher = start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QString::number(count),
                                           QStringLiteral("--epochs"), QStringLiteral("1")} +
                               common(run));
        const QString output = finish(launcher, 120000);
        QVERIFY2(launcher->exitCode() == 1, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("--nproc %1: ").arg(count)), qPrintable(output));
        QVERIFY2(!output.contains(QStringLiteral("worker(s)")), qPrintable(output));
        QVERIFY(!QFileInfo::exists(run));
    }
}

// Item 13: SIGTERM at the moment the workers were starting: each died of the signal, and the
// launcher reported "rank 0 was killed by signal 15" with a --resume hint. A stop during the
// launch is a stop: no failure, no hint, no worker left.
void TestRunSafetyCli::stopDuringTheLaunchEndsCleanly()
{
    const QString run = path(QStringLiteral("launch-stop"));
    auto* launcher = start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2")} +
                           longRun(run).mid(1));
    QString output;
    QVERIFY2(waitForOutput(launcher, QStringLiteral("rendezvous at"), output), qPrintable(output));
    const QString port = output.section(QStringLiteral("rendezvous at 127.0.0.1:"), 1).section(QLatin1Char('\n'), 0, 0).trimmed();
    ::kill(pid_t(launcher->processId()), SIGTERM);
    output += finish(launcher, 120000);
    QCOMPARE(launcher->exitStatus(), QProcess::NormalExit);
    QVERIFY2(launcher->exitCode() == 130, qPrintable(output));
    QVERIFY2(!output.contains(QStringLiteral("killed by signal")) && !output.contains(QStringLiteral("exited with code")),
             qPrintable(output));
    QTRY_VERIFY_WITH_TIMEOUT(processesWithVariable("MASTER_PORT=" + port.toLatin1()).isEmpty(), 60000);
}

// Item 17: a rank of another job given the same --master port joined this job's rendezvous and
// trained in it. Every rank now checks the job's identity (the run folder's name across
// machines, --job-id to choose it); a stranger is refused and both jobs are named.
void TestRunSafetyCli::rankOfAnotherJobIsRefusedAndNamed()
{
    const QString master = QStringLiteral("127.0.0.1:%1").arg(freeTcpPort());
    const auto node = [&](int rank, const QString& run) {
        return start(QStringList{QStringLiteral("train"), QStringLiteral("--nnodes"), QStringLiteral("2"),
                                 QStringLiteral("--node-rank"), QString::number(rank), QStringLiteral("--nproc"),
                                 QStringLiteral("1"), QStringLiteral("--master"), master, QStringLiteral("--timeout"),
                                 QStringLiteral("300"), QStringLiteral("--epochs"), QStringLiteral("1")} +
                     common(path(run)));
    };
    auto* ownerNode0 = node(0, QStringLiteral("job-a"));
    QString ownerOutput;
    QVERIFY2(waitForOutput(ownerNode0, QStringLiteral("rendezvous at"), ownerOutput), qPrintable(ownerOutput));
    auto* stranger = node(1, QStringLiteral("job-b"));
    const QString refused = finish(stranger, 120000);
    QVERIFY2(stranger->exitCode() == 1, qPrintable(refused));
    QVERIFY2(refused.contains(QStringLiteral("belongs to another job ('job-a'), not to this one ('job-b')")),
             qPrintable(refused));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("job-b/checkpoints/last.pt"))));

    // The job itself is unharmed: its own second node joins and the two train together.
    auto* ownerNode1 = node(1, QStringLiteral("job-a"));
    ownerOutput += finish(ownerNode0);
    const QString secondOutput = finish(ownerNode1);
    QVERIFY2(ownerNode0->exitCode() == 0 && ownerOutput.contains(QStringLiteral("x 2 ranks (gloo)")), qPrintable(ownerOutput));
    QVERIFY2(ownerNode1->exitCode() == 0, qPrintable(secondOutput));
}

QTEST_GUILESS_MAIN(TestRunSafetyCli)
#include "test_RunSafetyCli.moc"
