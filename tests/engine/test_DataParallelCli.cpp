#include "ProcessTree.h"
#include "TestPacks.h"
#include "TrainerProcess.h"
#include "engine/models/Checkpoint.h"
#include "engine/distributed/Distributed.h"
#include "engine/models/ModelRegistry.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <unistd.h>

#if __has_include(<torch/csrc/distributed/c10d/TCPStore.hpp>)
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace {

// A c10d store server on 127.0.0.1:port that waits for nobody (what torchrun's agent serves).
std::unique_ptr<c10d::TCPStore> serveStore(int port)
{
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(port);
    options.isServer = true;
    options.waitWorkers = false;
    return std::make_unique<c10d::TCPStore>("127.0.0.1", options);
}

}  // namespace
#endif

#include <csignal>
#include <filesystem>

using namespace segstudio::engine;
using segstudio::enginetest::childrenOf;
using segstudio::enginetest::gone;
namespace fs = std::filesystem;

// The segnet-tiny weights of two runs' last checkpoints: their iterations, the largest
// difference of any parameter, and the largest parameter (a comparison of zeros proves nothing).
struct CheckpointComparison {
    int iterationsA = 0;
    int iterationsB = 0;
    double largestDifference = 0.0;
    double largestParameter = 0.0;
};

static CheckpointComparison compareLastCheckpoints(const QString& runA, const QString& runB)
{
    const auto load = [](const QString& run) {
        auto model = ModelRegistry::instance().create("segnet-tiny", 4);
        const auto state = Checkpoint::load((fs::path(run.toStdString()) / "checkpoints" / "last.pt").string(), *model,
                                            nullptr, torch::kCPU);
        return std::make_pair(model, state.at("iteration").get<int>());
    };
    const auto [a, iterationsA] = load(runA);
    const auto [b, iterationsB] = load(runB);
    CheckpointComparison result{iterationsA, iterationsB};
    for (std::size_t i = 0; i < a->parameters().size(); ++i) {
        result.largestDifference = std::max(result.largestDifference, (a->parameters()[i] - b->parameters()[i]).abs().max().item<double>());
        result.largestParameter = std::max(result.largestParameter, a->parameters()[i].abs().max().item<double>());
    }
    return result;
}

// Data-parallel training as users launch it: segstudio-train's own launcher with 2 CPU processes
// (c10d Gloo), two "machines" on one host, and the faults: a killed rank, Ctrl+C, other packs.
class TestDataParallelCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void twoRanksEqualOneProcessAccumulatingBothHalves();
    void twoRanksAccumulatingEqualOneProcessAccumulatingAllQuarters();
    void killedRankStopsTheOthersAndIsNamed();
    void hungRankIsNamedAfterTheTimeout();
    void resumeWithMoreRanksFinishesTheRun();
    void oneWorkerFormsAGroupOfOne();
    void torchrunAgentStoreIsJoinedAsAClient();
    void torchrunItselfStartsRanksThatTrainAndResume();
    void interruptStopsAllRanksWithOneCheckpoint();
    void twoMachinesOnOneHostTrainTogether();
    void ranksWithDifferentPacksRefuseToStart();
    void portInUseIsNamed();
    void unreachableMasterIsNamed();
    void stopWhileWaitingForTheOtherMachineEndsAtOnce();
    void killingTheLauncherLeavesNoWorkers();

private:
    QProcess* start(const QStringList& arguments);
    QString finish(QProcess* process, int timeoutMs = 120000);
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QStringList common(const QString& runDir) const;
    static pid_t workerOfRank(qint64 launcher, int rank);
    // 2 ranks training "forever" into run; returned once the first training line is logged
    // (nullptr when none came within a minute).
    QProcess* startLongRun(const QString& run, const QStringList& more = {});
    // One "machine" of a 2-node run on this host: its launcher with one worker.
    QProcess* startNode(int node, const QString& master, const QStringList& more);

    QTemporaryDir m_dir;
};

void TestDataParallelCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(SEGSTUDIO_TRAIN_EXE)));
    segstudio::enginetest::writeStripePack(path(QStringLiteral("train.pack")).toStdString(), 8, 32, 32, 4, 1);
    segstudio::enginetest::writeStripePack(path(QStringLiteral("other.pack")).toStdString(), 8, 32, 32, 4, 9);
    auto* probe = start({QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2"), QStringLiteral("--train-pack"),
                         path(QStringLiteral("missing.pack")), QStringLiteral("-o"), path(QStringLiteral("probe"))});
    const QString output = finish(probe);
    if (output.contains(QStringLiteral("lacks")))
        QSKIP("this LibTorch has no c10d Gloo");
}

QProcess* TestDataParallelCli::start(const QStringList& arguments)
{
    return segstudio::enginetest::startTrainer(this, QStringLiteral(SEGSTUDIO_TRAIN_EXE), arguments);
}

QString TestDataParallelCli::finish(QProcess* process, int timeoutMs)
{
    if (!process->waitForFinished(timeoutMs))
        process->kill();
    return QString::fromUtf8(process->readAll());
}

QStringList TestDataParallelCli::common(const QString& runDir) const
{
    // No augmentation: both sides must see exactly the same pixels.
    return {QStringLiteral("--train-pack"), path(QStringLiteral("train.pack")), QStringLiteral("-o"), runDir,
            QStringLiteral("--no-flip"), QStringLiteral("--translate"), QStringLiteral("0"), QStringLiteral("--seed"),
            QStringLiteral("3"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--device"),
            QStringLiteral("cpu"), QStringLiteral("--log-interval"), QStringLiteral("1"), QStringLiteral("--model"),
            QStringLiteral("segnet-tiny"), QStringLiteral("--schedule"), QStringLiteral("none"), QStringLiteral("--warmup"),
            QStringLiteral("0")};  // a constant rate: a run extended by --resume follows the same one
}

QProcess* TestDataParallelCli::startLongRun(const QString& run, const QStringList& more)
{
    auto* launcher = start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2"),
                                       QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--epochs"),
                                       QStringLiteral("100000")} +
                           more + common(run));
    QFile metrics(run + QStringLiteral("/metrics.jsonl"));
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        if (metrics.open(QIODevice::ReadOnly)) {
            if (metrics.readAll().contains("\"kind\":\"train\""))
                return launcher;
            metrics.close();
        }
        QTest::qWait(100);
    }
    return nullptr;
}

pid_t TestDataParallelCli::workerOfRank(qint64 launcher, int rank)
{
    for (const pid_t child : childrenOf(launcher)) {
        QFile environ(QStringLiteral("/proc/%1/environ").arg(child));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains("RANK=" + QByteArray::number(rank)))
            return child;
    }
    return 0;
}

QProcess* TestDataParallelCli::startNode(int node, const QString& master, const QStringList& more)
{
    return start(QStringList{QStringLiteral("train"), QStringLiteral("--nnodes"), QStringLiteral("2"),
                             QStringLiteral("--node-rank"), QString::number(node), QStringLiteral("--nproc"),
                             QStringLiteral("1"), QStringLiteral("--master"), master} +
                 more);
}

// 2 ranks x batch 2 for 2 epochs, resumed in the middle, against 1 process with batch 4 split
// into the same two halves (accumulate 2: sample i of a batch goes to micro-batch i mod 2, as
// rank i mod 2 takes it), so batch-norm batch statistics are per half on both sides. The learned
// parameters are compared; the running statistics (buffers) differ by design, as docs/ENGINE.md
// says: each rank keeps its half's, one process updates them with both halves.
void TestDataParallelCli::twoRanksEqualOneProcessAccumulatingBothHalves()
{
    // 8 images, 2 ranks x 2: 2 steps an epoch. The first launch stops after 3 steps, in the
    // middle of epoch 2; the resume finishes it.
    const QString parallel = path(QStringLiteral("parallel"));
    QStringList first{QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2"), QStringLiteral("--batch"),
                      QStringLiteral("2"), QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--max-iterations"),
                      QStringLiteral("3")};
    QString output = finish(start(first + common(parallel)));
    QVERIFY2(output.contains(QStringLiteral("x 2 ranks (gloo)")) && output.contains(QStringLiteral("1 epochs, 3 iterations")),
             qPrintable(output));
    QCOMPARE(Checkpoint::readState(parallel.toStdString() + "/checkpoints/last.pt").at("batchInEpoch").get<int>(), 1);
    output = finish(start({QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2"), QStringLiteral("--resume"),
                           parallel, QStringLiteral("--max-iterations"), QStringLiteral("0")}));
    QVERIFY2(output.contains(QStringLiteral("finished: 2 epochs")), qPrintable(output));

    const QString single = path(QStringLiteral("single"));
    output = finish(start(QStringList{QStringLiteral("train"), QStringLiteral("--batch"), QStringLiteral("4"),
                                      QStringLiteral("--accumulate"), QStringLiteral("2"), QStringLiteral("--epochs"),
                                      QStringLiteral("2")} +
                          common(single)));
    QVERIFY2(output.contains(QStringLiteral("finished: 2 epochs")), qPrintable(output));

    const auto compared = compareLastCheckpoints(parallel, single);
    QCOMPARE(compared.iterationsA, 4);
    QCOMPARE(compared.iterationsB, 4);
    QVERIFY2(compared.largestDifference < 1e-5, qPrintable(QStringLiteral("parameters differ by %1").arg(compared.largestDifference)));
    QVERIFY(compared.largestParameter > 0.01);  // not a comparison of zeros
}

// Issue 27, item 2: data parallel and --accumulate together. 2 ranks x batch 4 in 2 micro-batches
// (rank r takes samples r, r+2, ... of a global batch of 8; its micro-batch j the samples
// i with i mod 2 = j) form the same four micro-batches as 1 process x batch 8 in 4: {0,4}, {2,6}
// on rank 0 and {1,5}, {3,7} on rank 1. The gradients averaged over ranks and micro-batches are
// the same, so the learned parameters are too. Plain SGD: the sums run in another order on each
// side, and Adam's step (lr x the gradient's sign where a gradient is near zero) turns those
// 1e-8 differences into lr-sized ones (0.003 with the default AdamW), which says nothing about
// the synchronisation.
void TestDataParallelCli::twoRanksAccumulatingEqualOneProcessAccumulatingAllQuarters()
{
    const QString parallel = path(QStringLiteral("parallel-accumulate"));
    QString output = finish(start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2"),
                                              QStringLiteral("--batch"), QStringLiteral("4"), QStringLiteral("--accumulate"),
                                              QStringLiteral("2"), QStringLiteral("--epochs"), QStringLiteral("3"),
                                              QStringLiteral("--optimizer"), QStringLiteral("sgd")} +
                                  common(parallel)));
    QVERIFY2(output.contains(QStringLiteral("x 2 ranks (gloo)")) && output.contains(QStringLiteral("finished: 3 epochs")),
             qPrintable(output));
    const QString single = path(QStringLiteral("single-accumulate"));
    output = finish(start(QStringList{QStringLiteral("train"), QStringLiteral("--batch"), QStringLiteral("8"),
                                      QStringLiteral("--accumulate"), QStringLiteral("4"), QStringLiteral("--epochs"),
                                      QStringLiteral("3"), QStringLiteral("--optimizer"), QStringLiteral("sgd")} +
                          common(single)));
    QVERIFY2(output.contains(QStringLiteral("finished: 3 epochs")), qPrintable(output));
    const auto compared = compareLastCheckpoints(parallel, single);
    QCOMPARE(compared.iterationsA, 3);  // one global batch of 8 an epoch
    QCOMPARE(compared.iterationsB, 3);
    QVERIFY2(compared.largestDifference < 1e-5, qPrintable(QStringLiteral("parameters differ by %1").arg(compared.largestDifference)));
    QVERIFY(compared.largestParameter > 0.01);  // not a comparison of zeros
}

void TestDataParallelCli::killedRankStopsTheOthersAndIsNamed()
{
    const QString run = path(QStringLiteral("killed"));
    auto* launcher = startLongRun(run, {QStringLiteral("--timeout"), QStringLiteral("20")});
    QVERIFY(launcher);
    // A checkpoint to continue from (the end of epoch 1): the launcher's --resume hint needs one.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(run + QStringLiteral("/checkpoints/last.pt")), 60000);
    // Rank 1 is the launcher's child whose environment says RANK=1: another child than rank 0.
    const pid_t rank1 = workerOfRank(launcher->processId(), 1);
    QVERIFY(rank1 > 0);
    const pid_t rank0 = workerOfRank(launcher->processId(), 0);
    QVERIFY(rank0 > 0 && rank0 != rank1);
    QElapsedTimer clock;
    clock.start();
    ::kill(rank1, SIGKILL);
    const QString output = finish(launcher, 60000);
    QVERIFY2(clock.elapsed() < 45000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
    QCOMPARE(launcher->exitStatus(), QProcess::NormalExit);
    QVERIFY(launcher->exitCode() != 0);
    QVERIFY2(output.contains(QStringLiteral("rank 1 (pid %1) was killed by signal 9").arg(rank1)), qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("--resume")), qPrintable(output));
}

// A rank that stops responding (SIGSTOP: alive, silent) is named, not the rank that timed out
// waiting for it, within the collective timeout and a little more.
void TestDataParallelCli::hungRankIsNamedAfterTheTimeout()
{
    const QString run = path(QStringLiteral("hung"));
    auto* launcher = startLongRun(run, {QStringLiteral("--timeout"), QStringLiteral("5")});
    QVERIFY(launcher);
    const pid_t rank1 = workerOfRank(launcher->processId(), 1);
    QVERIFY(rank1 > 0);
    QElapsedTimer clock;
    clock.start();
    ::kill(rank1, SIGSTOP);
    const QString output = finish(launcher, 90000);
    QVERIFY2(clock.elapsed() < 60000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
    QVERIFY2(launcher->exitCode() == 4, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("rank(s) 1 stopped responding")), qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("rank(s) 0 timed out waiting")), qPrintable(output));
    QTRY_VERIFY_WITH_TIMEOUT(gone(rank1), 10000);
}

// A run started on one process and resumed on two trains the epochs it has left: the schedule
// and the end follow the position in the data, not the count of one-process steps.
void TestDataParallelCli::resumeWithMoreRanksFinishesTheRun()
{
    const QString run = path(QStringLiteral("grow"));
    QString output = finish(start(QStringList{QStringLiteral("train"), QStringLiteral("--batch"), QStringLiteral("2"),
                                              QStringLiteral("--epochs"), QStringLiteral("1")} +
                                  common(run)));
    QVERIFY2(output.contains(QStringLiteral("finished: 1 epochs, 4 iterations")), qPrintable(output));
    output = finish(start({QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("2"), QStringLiteral("--resume"),
                           run, QStringLiteral("--epochs"), QStringLiteral("3")}));
    // 8 images: 4 one-process steps, then 2 steps of 2 ranks x 2 images per epoch.
    QVERIFY2(output.contains(QStringLiteral("finished: 3 epochs, 8 iterations")), qPrintable(output));
    // The resumed session's run record announced those 8 (issue 22: it said 3 epochs x 2 = 6).
    QFile metrics(run + QStringLiteral("/metrics.jsonl"));
    QVERIFY(metrics.open(QIODevice::ReadOnly));
    std::int64_t announced = 0;
    for (const QByteArray& line : metrics.readAll().split('\n')) {
        const auto record = nlohmann::json::parse(line.toStdString(), nullptr, false);
        if (record.is_object() && record.value("kind", "") == "run")
            announced = record.at("total_iterations").get<std::int64_t>();
    }
    QCOMPARE(announced, std::int64_t(8));
    const auto state = Checkpoint::readState(run.toStdString() + "/checkpoints/last.pt");
    QCOMPARE(state.at("epoch").get<int>(), 3);
    QCOMPARE(state.at("worldSize").get<int>(), 2);
}

// --nproc 1 goes through the launcher and a process group of one (the path --gpus 1 measures
// against a plain run), and trains exactly as a plain run does.
void TestDataParallelCli::oneWorkerFormsAGroupOfOne()
{
    const QString grouped = path(QStringLiteral("group-of-one"));
    const QString plain = path(QStringLiteral("plain-one"));
    const QStringList settings{QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--epochs"), QStringLiteral("1")};
    QString output = finish(start(QStringList{QStringLiteral("train"), QStringLiteral("--nproc"), QStringLiteral("1")} +
                                  settings + common(grouped)));
    QVERIFY2(output.contains(QStringLiteral("x 1 ranks (gloo)")) && output.contains(QStringLiteral("finished")),
             qPrintable(output));
    output = finish(start(QStringList{QStringLiteral("train")} + settings + common(plain)));
    QVERIFY2(output.contains(QStringLiteral("finished")) && !output.contains(QStringLiteral("ranks")), qPrintable(output));
    auto a = ModelRegistry::instance().create("segnet-tiny", 4);
    auto b = ModelRegistry::instance().create("segnet-tiny", 4);
    Checkpoint::load(grouped.toStdString() + "/checkpoints/last.pt", *a, nullptr, torch::kCPU);
    Checkpoint::load(plain.toStdString() + "/checkpoints/last.pt", *b, nullptr, torch::kCPU);
    for (std::size_t i = 0; i < a->parameters().size(); ++i)
        QVERIFY(torch::allclose(a->parameters()[i], b->parameters()[i], 1e-5, 1e-6));
}

// Issue 64.1: the real torchrun (Debian's python3-torch, `python3 -m torch.distributed.run`)
// starts two ranks of segstudio-train; they train as one run, and torchrun resumes it.
void TestDataParallelCli::torchrunItselfStartsRanksThatTrainAndResume()
{
    // Debian's own Python, where python3-torch installs (a python3 earlier on PATH may lack it).
    const QString python =
        QFileInfo::exists(QStringLiteral("/usr/bin/python3")) ? QStringLiteral("/usr/bin/python3") : QStringLiteral("python3");
    QProcess probe;
    probe.start(python, {QStringLiteral("-c"), QStringLiteral("import torch.distributed.run")});
    if (!probe.waitForFinished(60000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
        QSKIP("no torchrun here: python3 cannot import torch.distributed.run (Debian: apt install python3-torch)");
    const QString run = path(QStringLiteral("torchrun-real"));
    const auto torchrun = [&](const QStringList& trainArguments) {
        auto* launcher = new QProcess(this);
        launcher->setProcessChannelMode(QProcess::MergedChannels);
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        launcher->setProcessEnvironment(environment);
        // --redirects 1 --tee 1: Debian 12's torch 1.13 on Python 3.11 reads the default "0" as
        // None (an IntFlag's zero is no longer iterated) and stops before starting any worker.
        launcher->start(python,
                        QStringList{QStringLiteral("-m"), QStringLiteral("torch.distributed.run"), QStringLiteral("--nnodes"),
                                    QStringLiteral("1"), QStringLiteral("--nproc_per_node"), QStringLiteral("2"),
                                    QStringLiteral("--master_addr"), QStringLiteral("127.0.0.1"), QStringLiteral("--master_port"),
                                    QString::number(freeTcpPort()), QStringLiteral("--redirects"), QStringLiteral("1"),
                                    QStringLiteral("--tee"), QStringLiteral("1"), QStringLiteral("--log_dir"),
                                    path(QStringLiteral("torchrun-logs")), QStringLiteral("--no_python"),
                                    QStringLiteral(SEGSTUDIO_TRAIN_EXE)} +
                            trainArguments);
        const QString output = finish(launcher, 300000);
        return std::make_pair(launcher->exitCode(), output);
    };
    auto [code, output] = torchrun(QStringList{QStringLiteral("train"), QStringLiteral("--batch"), QStringLiteral("2"),
                                               QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--timeout"),
                                               QStringLiteral("60")} +
                                   common(run));
    QVERIFY2(code == 0 && output.contains(QStringLiteral("x 2 ranks (gloo)")) &&
                 output.contains(QStringLiteral("finished: 1 epochs, 2 iterations")),
             qPrintable(output));
    std::tie(code, output) = torchrun({QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--epochs"),
                                       QStringLiteral("2"), QStringLiteral("--timeout"), QStringLiteral("60")});
    QVERIFY2(code == 0 && output.contains(QStringLiteral("finished: 2 epochs, 4 iterations")), qPrintable(output));
    const auto state = Checkpoint::readState(run.toStdString() + "/checkpoints/last.pt");
    QCOMPARE(state.at("epoch").get<int>(), 2);
    QCOMPARE(state.at("worldSize").get<int>(), 2);
}

// torchrun --master-addr/--master-port (static rendezvous) serves the TCPStore in its agent and
// tells the workers so: they must join as clients, not try to serve the port themselves.
void TestDataParallelCli::torchrunAgentStoreIsJoinedAsAClient()
{
#if __has_include(<torch/csrc/distributed/c10d/TCPStore.hpp>)
    const int port = freeTcpPort();
    const auto agent = serveStore(port);  // the agent's store, as torchrun serves it
    const QString run = path(QStringLiteral("torchrun"));
    QList<QProcess*> workers;
    for (int rank = 0; rank < 2; ++rank) {
        auto* worker = new QProcess(this);
        worker->setProcessChannelMode(QProcess::MergedChannels);
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        for (const auto& [name, value] : std::vector<std::pair<QString, QString>>{
                 {"RANK", QString::number(rank)}, {"LOCAL_RANK", QString::number(rank)}, {"WORLD_SIZE", "2"},
                 {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", QString::number(port)},
                 {"TORCHELASTIC_USE_AGENT_STORE", "True"}, {"TORCHELASTIC_RESTART_COUNT", "0"}})
            environment.insert(name, value);
        worker->setProcessEnvironment(environment);
        worker->start(QStringLiteral(SEGSTUDIO_TRAIN_EXE),
                      QStringList{QStringLiteral("train"), QStringLiteral("--batch"), QStringLiteral("2"),
                                  QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--timeout"),
                                  QStringLiteral("30")} +
                          common(run));
        workers << worker;
    }
    const QString first = finish(workers[0]);
    const QString second = finish(workers[1]);
    QVERIFY2(workers[0]->exitCode() == 0 && first.contains(QStringLiteral("x 2 ranks (gloo)")), qPrintable(first));
    QVERIFY2(workers[1]->exitCode() == 0, qPrintable(second));
    // The workers met under the agent's per-attempt prefix, as torch.distributed's workers do.
    QVERIFY(agent->check({"/worker/attempt_0/segstudio/world_size_of_rank0"}));
#else
    QSKIP("this LibTorch has no c10d headers");
#endif
}

void TestDataParallelCli::interruptStopsAllRanksWithOneCheckpoint()
{
    const QString run = path(QStringLiteral("interrupted"));
    auto* launcher = startLongRun(run);
    QVERIFY(launcher);
    ::kill(pid_t(launcher->processId()), SIGINT);
    const QString output = finish(launcher, 60000);
    QCOMPARE(launcher->exitCode(), 130);
    const auto match = QRegularExpression(QStringLiteral("stopped at epoch (\\d+) iteration (\\d+)")).match(output);
    QVERIFY2(match.hasMatch(), qPrintable(output));
    QCOMPARE(output.count(QStringLiteral("checkpoint written")), 1);  // rank 0 alone
    const auto state = Checkpoint::readState(run.toStdString() + "/checkpoints/last.pt");
    QCOMPARE(state.at("iteration").get<int>(), match.captured(2).toInt());
    QCOMPARE(state.at("worldSize").get<int>(), 2);

    // It continues, here with one process (any world size), to the end of that epoch.
    const int epoch = match.captured(1).toInt();
    const QString resumed = finish(start({QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--epochs"),
                                          QString::number(epoch)}));
    QVERIFY2(resumed.contains(QStringLiteral("finished: %1 epochs").arg(epoch)), qPrintable(resumed));
}

void TestDataParallelCli::twoMachinesOnOneHostTrainTogether()
{
    const QString run = path(QStringLiteral("two-nodes"));
    const QString master = QStringLiteral("127.0.0.1:%1").arg(freeTcpPort());
    QList<QProcess*> nodes;
    for (int node = 0; node < 2; ++node)
        nodes << startNode(node, master,
                           QStringList{QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--epochs"),
                                       QStringLiteral("1"), QStringLiteral("--scale-lr"), QStringLiteral("--lr"),
                                       QStringLiteral("0.01")} +
                               common(run));
    const QString first = finish(nodes[0]);
    const QString second = finish(nodes[1]);
    QVERIFY2(nodes[0]->exitCode() == 0 && first.contains(QStringLiteral("x 2 ranks (gloo)")), qPrintable(first));
    QVERIFY2(nodes[1]->exitCode() == 0, qPrintable(second));
    QVERIFY(!second.contains(QStringLiteral("finished")));  // node 1's rank is silent; rank 0 reports
    const auto state = Checkpoint::readState(run.toStdString() + "/checkpoints/last.pt");
    QCOMPARE(state.at("iteration").get<int>(), 2);  // 8 images, 2 per rank and step, 2 ranks
    // --scale-lr: the learning rate grows with the global batch, 2 ranks x 0.01.
    QFile metrics(run + QStringLiteral("/metrics.jsonl"));
    QVERIFY(metrics.open(QIODevice::ReadOnly));
    nlohmann::json training;
    while (!metrics.atEnd() && training.is_null()) {
        const auto record = nlohmann::json::parse(metrics.readLine().toStdString(), nullptr, false);
        if (record.is_object() && record.value("kind", "") == "train")
            training = record;
    }
    QVERIFY(!training.is_null());
    QCOMPARE(training.at("lr").get<double>(), 0.02);
}

void TestDataParallelCli::ranksWithDifferentPacksRefuseToStart()
{
    const QString master = QStringLiteral("127.0.0.1:%1").arg(freeTcpPort());
    QList<QProcess*> nodes;
    for (int node = 0; node < 2; ++node) {
        // One job (--job-id) on two "machines" with their own folders, one with another pack.
        QStringList arguments = QStringList{QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--job-id"),
                                            QStringLiteral("mismatch")} +
                                common(path(QStringLiteral("mismatch-%1").arg(node)));
        if (node == 1)
            arguments[arguments.indexOf(path(QStringLiteral("train.pack")))] = path(QStringLiteral("other.pack"));
        nodes << startNode(node, master, arguments);
    }
    const QString output = finish(nodes[0]) + finish(nodes[1]);
    QVERIFY(nodes[0]->exitCode() != 0 && nodes[1]->exitCode() != 0);
    QVERIFY2(output.contains(QStringLiteral("differs between ranks")), qPrintable(output));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("mismatch-0/checkpoints/last.pt"))));
}

void TestDataParallelCli::portInUseIsNamed()
{
#if __has_include(<torch/csrc/distributed/c10d/TCPStore.hpp>)
    // Something else serves the master port: node 0 cannot rendezvous there and says so.
    const int port = freeTcpPort();
    const auto squatter = serveStore(port);
    const QString master = QStringLiteral("127.0.0.1:%1").arg(port);
    auto* node = startNode(0, master, QStringList{QStringLiteral("--timeout"), QStringLiteral("3")} +
                                          common(path(QStringLiteral("port-in-use"))));
    const QString output = finish(node, 60000);
    QVERIFY(node->exitCode() != 0);
    QVERIFY2(output.contains(QStringLiteral("rendezvous at ") + master) && output.contains(QStringLiteral("port in use")),
             qPrintable(output));
    // Said once, before any worker started: no raw c10d log line, no hint to resume what never ran.
    QVERIFY2(!output.contains(QStringLiteral("[W ")) && !output.contains(QStringLiteral("socket")), qPrintable(output));
    QVERIFY2(!output.contains(QStringLiteral("--resume")) && !output.contains(QStringLiteral("worker(s)")), qPrintable(output));
#else
    QSKIP("this LibTorch has no c10d headers");
#endif
}

void TestDataParallelCli::unreachableMasterIsNamed()
{
    // Node 1 alone: nobody serves the rendezvous. It gives up after --timeout, naming the address.
    const QString master = QStringLiteral("127.0.0.1:%1").arg(freeTcpPort());
    QElapsedTimer clock;
    clock.start();
    auto* node = startNode(1, master, QStringList{QStringLiteral("--timeout"), QStringLiteral("3")} +
                                          common(path(QStringLiteral("alone"))));
    const QString output = finish(node, 60000);
    QVERIFY(node->exitCode() != 0);
    QVERIFY2(output.contains(QStringLiteral("rendezvous at ") + master), qPrintable(output));
    QVERIFY2(clock.elapsed() < 30000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
}

// Issue 46.9: node 0 of two, its partner never started, stopped while its worker waits in the
// rendezvous: it used to wait out the rendezvous timeout and fail (rc 1, "Socket Timeout"). The
// worker is stopped once it holds a socket to the store, so the stop reaches it in the wait.
void TestDataParallelCli::stopWhileWaitingForTheOtherMachineEndsAtOnce()
{
    const QString master = QStringLiteral("127.0.0.1:%1").arg(freeTcpPort());
    auto* node = startNode(0, master, QStringList{QStringLiteral("--timeout"), QStringLiteral("300")} +
                                          common(path(QStringLiteral("waiting"))));
    pid_t worker = 0;
    const auto holdsASocket = [&worker] {
        const QString fds = QStringLiteral("/proc/%1/fd").arg(worker);
        for (const QString& fd : QDir(fds).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)) {
            char target[64] = {};
            const auto length = ::readlink((fds + QLatin1Char('/') + fd).toLocal8Bit().constData(), target, sizeof(target) - 1);
            if (length > 0 && std::string(target, std::size_t(length)).rfind("socket:", 0) == 0)
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT((worker = workerOfRank(node->processId(), 0)) != 0 && holdsASocket(), 60000);
    ::kill(pid_t(node->processId()), SIGTERM);
    const QString output = finish(node, 120000);
    QCOMPARE(node->exitStatus(), QProcess::NormalExit);
    QVERIFY2(node->exitCode() == 130, qPrintable(QStringLiteral("rc %1: %2").arg(node->exitCode()).arg(output)));
    QVERIFY2(!output.contains(QStringLiteral("imeout")), qPrintable(output));
    QTRY_VERIFY_WITH_TIMEOUT(gone(worker), 30000);
}

void TestDataParallelCli::killingTheLauncherLeavesNoWorkers()
{
    const QString run = path(QStringLiteral("orphans"));
    auto* launcher = startLongRun(run);
    QVERIFY(launcher);
    const QList<pid_t> workers = childrenOf(launcher->processId());
    QCOMPARE(workers.size(), 2);
    ::kill(pid_t(launcher->processId()), SIGKILL);
    finish(launcher, 30000);
    // Each worker got SIGTERM with its parent's death: it checkpoints or fails its next
    // collective, and is gone either way.
    for (const pid_t worker : workers)
        QTRY_VERIFY_WITH_TIMEOUT(gone(worker), 30000);
}

QTEST_GUILESS_MAIN(TestDataParallelCli)
#include "test_DataParallelCli.moc"
