#include "TestPacks.h"
#include "engine/models/Checkpoint.h"
#include "engine/training/Trainer.h"
#include "run/FileError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace segstudio::engine;
namespace fs = std::filesystem;

// Every file the trainer writes, written on a full disk: the kernel's /dev/full answers every
// write with ENOSPC, so pointing one of the run's files (or its temp file) at it is a real
// "no space left on device", not a simulated one. The trainer must throw run::FileError naming the
// file and the reason, leave no temp file, and keep the previous checkpoint.
class TestTrainerDiskFull : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void eachWriteOnAFullDiskFailsCleanly_data();
    void eachWriteOnAFullDiskFailsCleanly();
    void checkpointOnAFullDiskMidRunKeepsThePreviousOne();
    void summaryWithoutValidationSaysSo();

private:
    TrainConfig tinyConfig(const std::string& runName) const;
    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }

    QTemporaryDir m_dir;
};

void TestTrainerDiskFull::initTestCase()
{
    if (!fs::exists("/dev/full"))
        QSKIP("this system has no /dev/full");
    QVERIFY(m_dir.isValid());
    segstudio::enginetest::writeStripePack(path("train.pack"), 8, 16, 16, 3, 1);
}

TrainConfig TestTrainerDiskFull::tinyConfig(const std::string& runName) const
{
    TrainConfig config = TrainConfig::segnetRecipe();
    config.trainPack = path("train.pack");
    config.runDir = path(runName);
    config.model = "segnet-tiny";
    config.epochs = 1;
    config.batchSize = 4;
    config.device = "cpu";
    config.threads = 1;
    config.logInterval = 1;
    return config;
}

void TestTrainerDiskFull::eachWriteOnAFullDiskFailsCleanly_data()
{
    QTest::addColumn<QString>("fullFile");   // relative to the run folder: what points at /dev/full
    QTest::addColumn<QString>("namedFile");  // the file the error must name
    QTest::newRow("config") << "config.json.tmp" << "config.json";
    QTest::newRow("log") << "log.txt" << "log.txt";
    QTest::newRow("metrics") << "metrics.jsonl" << "metrics.jsonl";
    QTest::newRow("checkpoint") << "checkpoints/last.pt.tmp" << "checkpoints/last.pt";
}

void TestTrainerDiskFull::eachWriteOnAFullDiskFailsCleanly()
{
    QFETCH(QString, fullFile);
    QFETCH(QString, namedFile);
    const std::string run = "full-" + fullFile.toStdString().substr(0, 4);
    Trainer(tinyConfig(run)).run();  // one good epoch: last.pt at iteration 2
    const fs::path runDir = path(run);
    const fs::path full = runDir / fullFile.toStdString();
    fs::remove(full);
    fs::create_symlink("/dev/full", full);

    std::string message;
    try {
        auto resumed = Trainer::resume(runDir.string(), 2);
        resumed->run();
    } catch (const segstudio::run::FileError& error) {
        message = error.what();
    }
    QVERIFY2(message.find((runDir / namedFile.toStdString()).string()) != std::string::npos, message.c_str());
    QVERIFY2(message.find("No space left on device") != std::string::npos, message.c_str());
    if (fullFile.endsWith(QLatin1String(".tmp")))
        QVERIFY2(!fs::exists(fs::symlink_status(full)), "the temp file is left behind");
    const auto state = Checkpoint::readState((runDir / "checkpoints" / "last.pt").string());
    QCOMPARE(state.at("iteration").get<int>(), 2);
}

void TestTrainerDiskFull::checkpointOnAFullDiskMidRunKeepsThePreviousOne()
{
    TrainConfig config = tinyConfig("midrun");
    config.epochs = 3;  // last.pt after epoch 1 (iteration 2) and 2 (iteration 4)
    Trainer trainer(config);
    const fs::path temp = fs::path(trainer.lastCheckpointPath() + ".tmp");
    trainer.setIterationHook([&](std::int64_t iteration) {
        if (iteration == 3)  // after the first checkpoint, before the second
            fs::create_symlink("/dev/full", temp);
    });
    QVERIFY_THROWS_EXCEPTION(segstudio::run::FileError, trainer.run());
    QVERIFY(!fs::exists(fs::symlink_status(temp)));
    const auto state = Checkpoint::readState(trainer.lastCheckpointPath());
    QCOMPARE(state.at("iteration").get<int>(), 2);
    QCOMPARE(state.at("epoch").get<int>(), 1);
}

void TestTrainerDiskFull::summaryWithoutValidationSaysSo()
{
    Trainer trainer(tinyConfig("noval"));
    const auto outcome = trainer.run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
    QVERIFY2(outcome.message.find("no validation") != std::string::npos, outcome.message.c_str());
    QVERIFY2(outcome.message.find("-1") == std::string::npos, outcome.message.c_str());
}

QTEST_GUILESS_MAIN(TestTrainerDiskFull)
#include "test_TrainerDiskFull.moc"
