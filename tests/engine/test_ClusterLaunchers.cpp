// Issue 64.1: data-parallel training started as a cluster starts it, with the real launchers and
// the real network: two "hosts" (network namespaces joined by a veth pair) whose link is cut
// mid-run. Each test skips, saying why, only where its launcher cannot exist here.
#include "OneNodeSlurm.h"
#include "ProcessTree.h"
#include "TestPacks.h"
#include "TrainerProcess.h"
#include "engine/distributed/Distributed.h"
#include "engine/models/Checkpoint.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace segstudio::engine;
using segstudio::enginetest::gone;
using segstudio::enginetest::processTree;

namespace {

// A command run to its end; its exit code (-1: it could not start or did not end in time).
int runCommand(const QString& program, const QStringList& arguments, QString* output = nullptr)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit)
        return -1;
    if (output)
        *output = QString::fromLocal8Bit(process.readAll());
    return process.exitCode();
}

// Two hosts on this machine: network namespaces "a" and "b" joined by a veth pair, 10.X.Y.1 and
// 10.X.Y.2 (from the pid, so two test runs do not meet); removed again in the destructor.
class VethHosts {
public:
    VethHosts()
        : m_prefix(QStringLiteral("segstudio-%1").arg(::getpid())),
          m_subnet(QStringLiteral("10.%1.%2").arg(200 + ::getpid() % 50).arg(::getpid() / 50 % 250))
    {
    }
    ~VethHosts()
    {
        for (const QString& host : {a(), b()})
            runCommand(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("delete"), host});
    }
    // Empty on success, else what `ip` said.
    QString create()
    {
        const QString veth = QStringLiteral("ss%1").arg(::getpid() % 1000000);
        const QList<QStringList> steps{
            {"netns", "add", a()},
            {"netns", "add", b()},
            {"link", "add", veth + "a", "netns", a(), "type", "veth", "peer", "name", veth + "b", "netns", b()},
            {"-n", a(), "addr", "add", address(1) + "/24", "dev", veth + "a"},
            {"-n", b(), "addr", "add", address(2) + "/24", "dev", veth + "b"},
            {"-n", a(), "link", "set", veth + "a", "up"},
            {"-n", b(), "link", "set", veth + "b", "up"},
            {"-n", a(), "link", "set", "lo", "up"},
            {"-n", b(), "link", "set", "lo", "up"}};
        m_veth = veth + "a";
        for (const QStringList& step : steps) {
            QString said;
            if (runCommand(QStringLiteral("ip"), step, &said) != 0)
                return QStringLiteral("ip %1: %2").arg(step.join(' '), said.trimmed());
        }
        return {};
    }
    QString a() const { return m_prefix + QStringLiteral("-a"); }
    QString b() const { return m_prefix + QStringLiteral("-b"); }
    QString address(int host) const { return m_subnet + QStringLiteral(".%1").arg(host); }
    // The cable pulled: host a's end of the pair goes down (no reset reaches either side).
    bool cut() const
    {
        return runCommand(QStringLiteral("ip"), {QStringLiteral("-n"), a(), QStringLiteral("link"), QStringLiteral("set"),
                                                 m_veth, QStringLiteral("down")}) == 0;
    }

private:
    QString m_prefix;
    QString m_subnet;
    QString m_veth;
};

}  // namespace

class TestClusterLaunchers : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void twoHostsTrainAndACutLinkIsNamedThenOneHostResumes();
    void slurmStartsTwoRanksWithSrunAndSbatchAndScancelStopsWithACheckpoint();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QStringList common(const QString& runDir) const;
    QString finish(QProcess* process, int timeoutMs = 120000);

    QTemporaryDir m_dir;
};

void TestClusterLaunchers::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(SEGSTUDIO_TRAIN_EXE)));
    segstudio::enginetest::writeStripePack(path(QStringLiteral("train.pack")).toStdString(), 8, 32, 32, 4, 1);
}

QStringList TestClusterLaunchers::common(const QString& runDir) const
{
    return {QStringLiteral("--train-pack"), path(QStringLiteral("train.pack")), QStringLiteral("-o"), runDir,
            QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--device"), QStringLiteral("cpu"),
            QStringLiteral("--log-interval"), QStringLiteral("1"), QStringLiteral("--model"), QStringLiteral("segnet-tiny"),
            QStringLiteral("--batch"), QStringLiteral("2")};
}

QString TestClusterLaunchers::finish(QProcess* process, int timeoutMs)
{
    if (!process->waitForFinished(timeoutMs))
        process->kill();
    return QString::fromUtf8(process->readAll());
}

// One rank on each host, the master on host a; mid-run host a's end of the link goes down. Both
// sides end within the collective timeout and a little more, each naming what it lost, nothing
// of either is left running, and the run continues from its last checkpoint on one host.
void TestClusterLaunchers::twoHostsTrainAndACutLinkIsNamedThenOneHostResumes()
{
    if (!processGroupAvailable("gloo"))
        QSKIP("this LibTorch has no c10d Gloo");
    if (::geteuid() != 0)
        QSKIP("network namespaces need root (CAP_NET_ADMIN): run the suite as root, as .ci/run does in CI");
    VethHosts hosts;
    if (const QString failed = hosts.create(); !failed.isEmpty())
        QSKIP(qPrintable(QStringLiteral("no network namespaces here (%1)").arg(failed)));
    const QString run = path(QStringLiteral("two-hosts"));
    const QString master = hosts.address(1) + QStringLiteral(":29531");
    QList<QProcess*> nodes;
    for (int node = 0; node < 2; ++node)
        nodes << segstudio::enginetest::startTrainer(
            this, QStringLiteral("ip"),
            QStringList{QStringLiteral("netns"), QStringLiteral("exec"), node == 0 ? hosts.a() : hosts.b(),
                        QStringLiteral(SEGSTUDIO_TRAIN_EXE), QStringLiteral("train"), QStringLiteral("--nnodes"),
                        QStringLiteral("2"), QStringLiteral("--node-rank"), QString::number(node), QStringLiteral("--nproc"),
                        QStringLiteral("1"), QStringLiteral("--master"), master, QStringLiteral("--epochs"),
                        QStringLiteral("100000"), QStringLiteral("--timeout"), QStringLiteral("10")} +
                common(run));
    // Trained together across the link: a checkpoint to resume from (the end of epoch 1).
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(run + QStringLiteral("/checkpoints/last.pt")), 120000);
    QList<pid_t> processes;
    for (QProcess* node : nodes)
        processes += processTree(node->processId());
    QVERIFY(hosts.cut());
    QElapsedTimer clock;
    clock.start();
    const QString first = finish(nodes[0], 120000);
    const QString second = finish(nodes[1], 120000);
    qInfo("link cut: both hosts ended after %lld ms", static_cast<long long>(clock.elapsed()));
    QVERIFY2(first.contains(QStringLiteral("x 2 ranks (gloo)")), qPrintable(first));
    // Each host names its own rank as the one left waiting for the other machine (exit 4: a
    // collective timed out), and says how to go on.
    for (int node = 0; node < 2; ++node) {
        const QString& said = node == 0 ? first : second;
        QVERIFY2(nodes[node]->exitCode() == 4, qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("rank(s) %1 timed out waiting for a rank on another machine").arg(node)),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("train --resume ") + run), qPrintable(said));
    }
    for (const pid_t process : processes)
        QTRY_VERIFY_WITH_TIMEOUT(gone(process), 30000);

    const int epochs = Checkpoint::readState(run.toStdString() + "/checkpoints/last.pt").at("epoch").get<int>();
    auto* resumed = segstudio::enginetest::startTrainer(
        this, QStringLiteral(SEGSTUDIO_TRAIN_EXE),
        {QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--epochs"), QString::number(epochs + 1)});
    const QString output = finish(resumed);
    QVERIFY2(resumed->exitCode() == 0 && output.contains(QStringLiteral("finished: %1 epochs").arg(epochs + 1)),
             qPrintable(output));
}

// A one-node cluster of the real SLURM: `srun --ntasks 2` trains two ranks as one run; `sbatch`
// runs the same as a batch job; `scancel` of a running job gives each rank SIGTERM, and the run
// stops with a checkpoint it can be resumed from.
void TestClusterLaunchers::slurmStartsTwoRanksWithSrunAndSbatchAndScancelStopsWithACheckpoint()
{
    if (!processGroupAvailable("gloo"))
        QSKIP("this LibTorch has no c10d Gloo");
    if (const QString missing = segstudio::enginetest::OneNodeSlurm::missing(); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    segstudio::enginetest::OneNodeSlurm cluster(path(QStringLiteral("slurm")));
    if (const QString failed = cluster.start(); !failed.isEmpty())
        QFAIL(qPrintable(QStringLiteral("the one-node cluster did not start: ") + failed));
    const QString trainer = QStringLiteral(SEGSTUDIO_TRAIN_EXE);

    const QString interactive = path(QStringLiteral("srun-run"));
    auto* srun = cluster.command(this, QStringLiteral("srun"),
                                 QStringList{QStringLiteral("--ntasks"), QStringLiteral("2"), trainer, QStringLiteral("train"),
                                             QStringLiteral("--epochs"), QStringLiteral("1")} +
                                     common(interactive));
    QString output = finish(srun);
    QVERIFY2(srun->exitCode() == 0 && output.contains(QStringLiteral("x 2 ranks (gloo)")) &&
                 output.contains(QStringLiteral("finished: 1 epochs, 2 iterations")),
             qPrintable(output));

    // A batch job that trains "forever", cancelled once it has trained.
    const QString batch = path(QStringLiteral("sbatch-run"));
    QFile script(path(QStringLiteral("job.sh")));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\nexec srun %1 train --epochs 100000 %2\n")
                     .arg(trainer, (common(batch) + QStringList{QStringLiteral("--timeout"), QStringLiteral("30")}).join(' '))
                     .toUtf8());
    script.close();
    auto* sbatch = cluster.command(this, QStringLiteral("sbatch"),
                                   {QStringLiteral("--parsable"), QStringLiteral("--ntasks"), QStringLiteral("2"),
                                    QStringLiteral("--output"), path(QStringLiteral("job.out")), script.fileName()});
    const QString job = finish(sbatch).trimmed().section(';', 0, 0);
    QVERIFY2(sbatch->exitCode() == 0 && !job.isEmpty(), qPrintable(job));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(batch + QStringLiteral("/checkpoints/last.pt")), 120000);
    auto* scancel = cluster.command(this, QStringLiteral("scancel"), {job});
    QVERIFY2(finish(scancel).isEmpty() || scancel->exitCode() == 0, "scancel failed");
    QTRY_VERIFY_WITH_TIMEOUT(cluster.jobState(job) == QStringLiteral("CANCELLED"), 60000);
    QFile log(batch + QStringLiteral("/log.txt"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QString said = QString::fromUtf8(log.readAll());
    QVERIFY2(said.contains(QStringLiteral("x 2 ranks (gloo)")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("checkpoint written, continue with --resume ") + batch), qPrintable(said));
    const auto state = Checkpoint::readState(batch.toStdString() + "/checkpoints/last.pt");
    QCOMPARE(state.at("worldSize").get<int>(), 2);

    // The cancelled run goes on as another job step: two ranks again, one epoch more.
    const int epochs = state.at("epoch").get<int>();
    auto* resumed = cluster.command(this, QStringLiteral("srun"),
                                    {QStringLiteral("--ntasks"), QStringLiteral("2"), trainer, QStringLiteral("train"),
                                     QStringLiteral("--resume"), batch, QStringLiteral("--epochs"), QString::number(epochs + 1)});
    output = finish(resumed);
    QVERIFY2(resumed->exitCode() == 0 && output.contains(QStringLiteral("finished: %1 epochs").arg(epochs + 1)),
             qPrintable(output));
}

QTEST_GUILESS_MAIN(TestClusterLaunchers)
#include "test_ClusterLaunchers.moc"
