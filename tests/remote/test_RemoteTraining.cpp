// Issue 64.2: a run trained on another machine for real: a real sshd on localhost (the "remote"
// machine, this user, keys made by the test) and segstudio-train there. The packs are sent (once:
// unchanged packs are not sent again), the trainer started with nohup, the run folder mirrored
// back while it trains (the logs appended in place), and Stop is SIGTERM over ssh: the checkpoint
// is written there and the mirror brings the "stopped" record home.
#include "LocalSshServer.h"
#include "OneNodeSlurm.h"
#include "TestPacks.h"
#include "remote/RemoteCommands.h"
#include "remote/RemoteRunRecord.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace segstudio::remote;

namespace {

struct Ran {
    int code = -1;
    QString out;
    QString err;
};

Ran runCommand(const RemoteCommands::Command& command, const QByteArray& input = {})
{
    QProcess process;
    QStringList arguments;
    for (std::size_t i = 1; i < command.size(); ++i)
        arguments << QString::fromStdString(command[i]);
    process.start(QString::fromStdString(command.front()), arguments);
    process.write(input);
    process.closeWriteChannel();
    Ran ran;
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit)
        return ran;
    ran.code = process.exitCode();
    ran.out = QString::fromUtf8(process.readAllStandardOutput());
    ran.err = QString::fromUtf8(process.readAllStandardError());
    return ran;
}

quint64 inodeOf(const QString& file)
{
    struct stat info {};
    return ::stat(file.toLocal8Bit().constData(), &info) == 0 ? quint64(info.st_ino) : 0;
}

}  // namespace

class TestRemoteTraining : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void aRunTrainsThereAndComesHome();
    void stopOverSshLeavesACheckpointThere();
    void aSlurmJobSubmittedOverSshTrainsAndScancelStopsIt();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    // The run started there with the local packs; its record (pid) or a failure.
    RemoteRunRecord startThere(const QString& localRun, const QStringList& trainOptions);
    QString statusThere(const RemoteRunRecord& record);
    void mirror(const RemoteRunRecord& record, const QString& localRun);
    bool trainingRecordCameHome(const RemoteRunRecord& record, const QString& localRun);
    // Stop there (SIGTERM or scancel), wait for the end, mirror: log.txt says a checkpoint was written.
    void stopAndBringHome(const RemoteRunRecord& record, const QString& localRun);

    QTemporaryDir m_dir;
    std::unique_ptr<segstudio::remotetest::LocalSshServer> m_server;
    RemoteTarget m_target;
};

void TestRemoteTraining::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (const QString missing = segstudio::remotetest::LocalSshServer::missing(); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    m_server = std::make_unique<segstudio::remotetest::LocalSshServer>(path(QStringLiteral("sshd")));
    if (const QString failed = m_server->start(); !failed.isEmpty())
        QFAIL(qPrintable(QStringLiteral("the local sshd did not start: ") + failed));
    m_target = m_server->target();
    m_target.trainer = SEGSTUDIO_TRAIN_EXE;
    m_target.folder = path(QStringLiteral("far-side/runs")).toStdString();  // absolute: this host is the far side
}

void TestRemoteTraining::cleanupTestCase()
{
    m_server.reset();
}

RemoteRunRecord TestRemoteTraining::startThere(const QString& localRun, const QStringList& trainOptions)
{
    RemoteRunRecord record;
    record.target = m_target;
    record.remoteRunDir = RemoteCommands::remoteRunDir(m_target, QFileInfo(localRun).fileName().toStdString());
    std::vector<std::string> arguments{"train", "--train-pack", record.remoteRunDir + "/train.pack", "--val-pack",
                                       record.remoteRunDir + "/val.pack", "-o", record.remoteRunDir};
    for (const QString& option : trainOptions)
        arguments.push_back(option.toStdString());
    const Ran made = runCommand(RemoteCommands::ssh(m_target, RemoteCommands::makeRunDir(record.remoteRunDir)));
    if (made.code != 0)
        qWarning("mkdir there: %s", qPrintable(made.err));
    const Ran sent = runCommand(RemoteCommands::send(
        m_target, {(localRun + QStringLiteral("/train.pack")).toStdString(), (localRun + QStringLiteral("/val.pack")).toStdString()},
        record.remoteRunDir));
    if (sent.code != 0)
        qWarning("send: %s", qPrintable(sent.err));
    const Ran started = runCommand(RemoteCommands::ssh(m_target, RemoteCommands::start(m_target, record.remoteRunDir, arguments)));
    record.pid = started.out.trimmed().toLongLong();
    return record;
}

QString TestRemoteTraining::statusThere(const RemoteRunRecord& record)
{
    return runCommand(RemoteCommands::ssh(record.target, RemoteCommands::status(record))).out.trimmed();
}

void TestRemoteTraining::mirror(const RemoteRunRecord& record, const QString& localRun)
{
    const Ran logs = runCommand(RemoteCommands::mirrorLogs(record, localRun.toStdString()));
    QVERIFY2(logs.code == 0, qPrintable(logs.err));
    const Ran files = runCommand(RemoteCommands::mirrorFiles(record, localRun.toStdString()));
    QVERIFY2(files.code == 0, qPrintable(files.err));
}

bool TestRemoteTraining::trainingRecordCameHome(const RemoteRunRecord& record, const QString& localRun)
{
    mirror(record, localRun);
    QFile metrics(localRun + QStringLiteral("/metrics.jsonl"));
    return metrics.open(QIODevice::ReadOnly) && metrics.readAll().contains("\"kind\":\"train\"");
}

void TestRemoteTraining::stopAndBringHome(const RemoteRunRecord& record, const QString& localRun)
{
    QCOMPARE(runCommand(RemoteCommands::ssh(record.target, RemoteCommands::stop(record))).code, 0);
    QTRY_COMPARE_WITH_TIMEOUT(statusThere(record), QStringLiteral("ended"), 90000);
    mirror(record, localRun);
    QFile log(localRun + QStringLiteral("/log.txt"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QString said = QString::fromUtf8(log.readAll());
    QVERIFY2(said.contains(QStringLiteral("checkpoint written, continue with --resume")), qPrintable(said));
}

void TestRemoteTraining::aRunTrainsThereAndComesHome()
{
    const QString local = path(QStringLiteral("runs/there 1"));  // a space: every word is quoted
    QVERIFY(QDir().mkpath(local));
    segstudio::enginetest::writeStripePack((local + QStringLiteral("/train.pack")).toStdString(), 8, 32, 32, 4, 1);
    segstudio::enginetest::writeStripePack((local + QStringLiteral("/val.pack")).toStdString(), 4, 32, 32, 4, 2);
    const RemoteRunRecord record = startThere(local, {QStringLiteral("--model"), QStringLiteral("segnet-tiny"),
                                                      QStringLiteral("--epochs"), QStringLiteral("3"), QStringLiteral("--batch"),
                                                      QStringLiteral("2"), QStringLiteral("--threads"), QStringLiteral("1"),
                                                      QStringLiteral("--device"), QStringLiteral("cpu")});
    QVERIFY2(record.pid > 0, "no pid from the far side");
    const QString there = QString::fromStdString(record.remoteRunDir);
    QVERIFY(QFileInfo::exists(there + QStringLiteral("/train.pack")));  // the far side's folder (this host)

    // Mirrored while it trains: the local metrics file grows in place (one inode).
    quint64 inode = 0;
    bool grewInPlace = true;
    while (statusThere(record) == QStringLiteral("running")) {
        mirror(record, local);
        const quint64 now = inodeOf(local + QStringLiteral("/metrics.jsonl"));
        if (inode && now && now != inode)
            grewInPlace = false;
        inode = now ? now : inode;
    }
    mirror(record, local);
    QVERIFY(grewInPlace);
    QVERIFY(inode == 0 || inode == inodeOf(local + QStringLiteral("/metrics.jsonl")));
    QFile log(local + QStringLiteral("/log.txt"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QString said = QString::fromUtf8(log.readAll());
    QVERIFY2(said.contains(QStringLiteral("finished: 3 epochs")), qPrintable(said));
    QFile metrics(local + QStringLiteral("/metrics.jsonl"));
    QVERIFY(metrics.open(QIODevice::ReadOnly));
    QVERIFY(metrics.readAll().contains("\"state\":\"finished\""));
    QVERIFY(QFileInfo::exists(local + QStringLiteral("/checkpoints/best.pt")));   // predictions can use it here
    QVERIFY(!QFileInfo::exists(local + QStringLiteral("/checkpoints/last.pt")));  // stays there
    QVERIFY(!QFileInfo::exists(local + QStringLiteral("/trainer.lock")));

    // The packs again, unchanged: nothing is sent (rsync --checksum, --itemize-changes empty).
    auto again = RemoteCommands::send(m_target, {(local + QStringLiteral("/train.pack")).toStdString()}, record.remoteRunDir);
    again.insert(again.begin() + 1, "--itemize-changes");
    const Ran resent = runCommand(again);
    QCOMPARE(resent.code, 0);
    QCOMPARE(resent.out.trimmed(), QString());
    // A changed pack goes.
    segstudio::enginetest::writeStripePack((local + QStringLiteral("/train.pack")).toStdString(), 8, 32, 32, 4, 7);
    QVERIFY(runCommand(again).out.contains(QStringLiteral("train.pack")));
}

void TestRemoteTraining::stopOverSshLeavesACheckpointThere()
{
    const QString local = path(QStringLiteral("runs/there-2"));
    QVERIFY(QDir().mkpath(local));
    segstudio::enginetest::writeStripePack((local + QStringLiteral("/train.pack")).toStdString(), 8, 32, 32, 4, 1);
    segstudio::enginetest::writeStripePack((local + QStringLiteral("/val.pack")).toStdString(), 4, 32, 32, 4, 2);
    const RemoteRunRecord record =
        startThere(local, {QStringLiteral("--model"), QStringLiteral("segnet-tiny"), QStringLiteral("--epochs"),
                           QStringLiteral("100000"), QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--threads"),
                           QStringLiteral("1"), QStringLiteral("--device"), QStringLiteral("cpu")});
    QVERIFY(record.pid > 0);
    // Stopped once it trains (its first train record has come home).
    QTRY_VERIFY_WITH_TIMEOUT(trainingRecordCameHome(record, local), 120000);
    stopAndBringHome(record, local);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(QFileInfo::exists(QString::fromStdString(record.remoteRunDir) + QStringLiteral("/checkpoints/last.pt")));
    QFile metrics(local + QStringLiteral("/metrics.jsonl"));
    QVERIFY(metrics.open(QIODevice::ReadOnly));
    QVERIFY(metrics.readAll().contains("\"state\":\"stopped\""));
}

// A SLURM cluster reached over SSH: the job script (one rank on CPUs) given to the login node on
// standard input, saved beside the run folder and submitted with sbatch; squeue says it runs;
// scancel stops it with a checkpoint; the mirror brings the stop home. The login node is the
// local sshd, whose sessions find the one-node cluster through SLURM_CONF (sshd's SetEnv).
void TestRemoteTraining::aSlurmJobSubmittedOverSshTrainsAndScancelStopsIt()
{
    if (const QString missing = segstudio::enginetest::OneNodeSlurm::missing(); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    segstudio::enginetest::OneNodeSlurm cluster(path(QStringLiteral("slurm")));
    if (const QString failed = cluster.start(); !failed.isEmpty())
        QFAIL(qPrintable(QStringLiteral("the one-node cluster did not start: ") + failed));
    segstudio::remotetest::LocalSshServer login(path(QStringLiteral("login")),
                                                {QStringLiteral("SLURM_CONF=") + cluster.configFile()});
    if (const QString failed = login.start(); !failed.isEmpty())
        QFAIL(qPrintable(QStringLiteral("the login node's sshd did not start: ") + failed));
    RemoteTarget target = login.target();
    target.kind = RemoteTarget::Kind::Slurm;
    target.trainer = SEGSTUDIO_TRAIN_EXE;
    target.folder = path(QStringLiteral("cluster-home/runs")).toStdString();
    target.timeLimitMinutes = 10;

    const QString local = path(QStringLiteral("runs/on-slurm"));
    QVERIFY(QDir().mkpath(local));
    segstudio::enginetest::writeStripePack((local + QStringLiteral("/train.pack")).toStdString(), 8, 32, 32, 4, 1);
    RemoteRunRecord record;
    record.target = target;
    record.remoteRunDir = RemoteCommands::remoteRunDir(target, "on-slurm");
    QCOMPARE(runCommand(RemoteCommands::ssh(target, RemoteCommands::makeRunDir(record.remoteRunDir))).code, 0);
    QCOMPARE(runCommand(RemoteCommands::send(target, {(local + QStringLiteral("/train.pack")).toStdString()}, record.remoteRunDir)).code, 0);
    const std::vector<std::string> arguments{"train", "--train-pack", record.remoteRunDir + "/train.pack", "-o",
                                             record.remoteRunDir, "--model", "segnet-tiny", "--epochs", "100000", "--batch",
                                             "2", "--threads", "1", "--device", "cpu"};
    const Ran submitted = runCommand(RemoteCommands::ssh(target, RemoteCommands::start(target, record.remoteRunDir, arguments)),
                                     QByteArray::fromStdString(RemoteCommands::jobScript(target, record.remoteRunDir, arguments)));
    QVERIFY2(submitted.code == 0, qPrintable(submitted.err));
    record.jobId = submitted.out.trimmed().section(';', 0, 0).toStdString();
    QVERIFY2(!record.jobId.empty(), qPrintable(submitted.out));
    QVERIFY(QFileInfo::exists(QString::fromStdString(record.remoteRunDir) + QStringLiteral(".sbatch")));  // kept beside the run
    QCOMPARE(statusThere(record), QStringLiteral("running"));
    QTRY_VERIFY_WITH_TIMEOUT(trainingRecordCameHome(record, local), 120000);
    stopAndBringHome(record, local);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(cluster.jobState(QString::fromStdString(record.jobId)), QStringLiteral("CANCELLED"));
}

QTEST_GUILESS_MAIN(TestRemoteTraining)
#include "test_RemoteTraining.moc"
