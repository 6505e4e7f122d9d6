#include "TestPacks.h"
#include "engine/Checkpoint.h"
#include "engine/ModelRegistry.h"
#include "engine/StopFlag.h"
#include "engine/Trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace segstudio::engine;
namespace fs = std::filesystem;

// Resuming must be exact: same batches, same augmentations, same optimiser state, so the
// parameters after resume equal those of a run that was never stopped.
class TestTrainerResume : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void resumeAfterEpochEqualsStraightRun();
    void interruptedRunResumesExactly();

private:
    TrainConfig config(const std::string& runName, int epochs) const;
    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }
    double maxParameterDifference(const std::string& runA, const std::string& runB) const;

    QTemporaryDir m_dir;
    std::string m_straightRun;
};

void TestTrainerResume::initTestCase()
{
    QVERIFY(m_dir.isValid());
    segstudio::enginetest::writeStripePack(path("train.pack"), 8, 32, 32, 4, 3);
    segstudio::enginetest::writeStripePack(path("val.pack"), 2, 32, 32, 4, 4);
    m_straightRun = path("straight");
    const auto outcome = Trainer(config("straight", 2)).run();
    QCOMPARE(outcome.iterations, std::int64_t(4));
}

TrainConfig TestTrainerResume::config(const std::string& runName, int epochs) const
{
    TrainConfig c;
    c.trainPack = path("train.pack");
    c.valPack = path("val.pack");
    c.runDir = path(runName);
    c.epochs = epochs;
    c.batchSize = 4;
    c.device = "cpu";
    c.threads = 1;
    c.deterministic = true;
    c.learningRate = 1e-2;
    c.scaleCrop = true;  // every augmentation must replay identically
    c.logInterval = 1;
    return c;
}

double TestTrainerResume::maxParameterDifference(const std::string& runA, const std::string& runB) const
{
    auto a = ModelRegistry::instance().create("segnet-tiny", 4);
    auto b = ModelRegistry::instance().create("segnet-tiny", 4);
    Checkpoint::load((fs::path(runA) / "checkpoints" / "last.pt").string(), *a, nullptr, torch::kCPU);
    Checkpoint::load((fs::path(runB) / "checkpoints" / "last.pt").string(), *b, nullptr, torch::kCPU);
    double worst = 0.0;
    const auto pa = a->named_parameters(), pb = b->named_parameters();
    for (const auto& item : pa)
        worst = std::max(worst, (item.value() - pb[item.key()]).abs().max().item<double>());
    const auto ba = a->named_buffers(), bb = b->named_buffers();
    for (const auto& item : ba)
        worst = std::max(worst, (item.value().to(torch::kDouble) - bb[item.key()].to(torch::kDouble)).abs().max().item<double>());
    return worst;
}

void TestTrainerResume::resumeAfterEpochEqualsStraightRun()
{
    const auto first = Trainer(config("split", 1)).run();
    QCOMPARE(first.iterations, std::int64_t(2));
    // A different run really differs (the comparison is not vacuous).
    QVERIFY(maxParameterDifference(m_straightRun, path("split")) > 1e-4);

    auto resumed = Trainer::resume(path("split"), 2);
    const auto second = resumed->run();
    QCOMPARE(int(second.status), int(TrainOutcome::Status::Finished));
    QCOMPARE(second.iterations, std::int64_t(4));
    QVERIFY(maxParameterDifference(m_straightRun, path("split")) <= 1e-6);
}

void TestTrainerResume::interruptedRunResumesExactly()
{
    Trainer trainer(config("interrupted", 2));
    trainer.setIterationHook([](std::int64_t iteration) {
        if (iteration == 3)  // mid-epoch 2
            requestStop();
    });
    const auto stopped = trainer.run();
    clearStopRequest();
    QCOMPARE(int(stopped.status), int(TrainOutcome::Status::Stopped));
    QCOMPARE(stopped.iterations, std::int64_t(3));
    const auto state = Checkpoint::readState(trainer.lastCheckpointPath());
    QCOMPARE(state.at("epoch").get<int>(), 1);
    QCOMPARE(state.at("batchInEpoch").get<int>(), 1);

    const auto finished = Trainer::resume(path("interrupted"))->run();
    QCOMPARE(int(finished.status), int(TrainOutcome::Status::Finished));
    QCOMPARE(finished.iterations, std::int64_t(4));
    QVERIFY(maxParameterDifference(m_straightRun, path("interrupted")) <= 1e-6);
}

QTEST_GUILESS_MAIN(TestTrainerResume)
#include "test_TrainerResume.moc"
