#include "engine/training/RunRecorder.h"
#include "run/FileError.h"
#include "run/MetricsReader.h"
#include "run/RunLayout.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace segstudio::engine;
using segstudio::run::MetricsRecord;
using segstudio::run::RunState;
namespace fs = std::filesystem;

// Rank 0's records of a run in a temp run folder: what lands in metrics.jsonl, log.txt and
// config.json, in order; a non-leader writes nothing; a line reaches the progress function even
// when the log file is on a full disk (/dev/full, as in test_TrainerDiskFull).
class TestRunRecorder : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void recordsLandInOrder();
    void aResumeDropsTheIterationsAfterItsCheckpoint();
    void aNonLeaderWritesNothing();
    void sayReachesTheProgressFunctionOnAFullDisk();

private:
    TrainConfig configFor(const std::string& name) const
    {
        TrainConfig config;
        config.runDir = (fs::path(m_dir.path().toStdString()) / name).string();
        config.model = "segnet-tiny";
        fs::create_directories(config.runDir);  // the trainer makes it before the recorder opens
        return config;
    }
    static std::string text(const fs::path& file)
    {
        std::ifstream in(file);
        std::stringstream all;
        all << in.rdbuf();
        return all.str();
    }

    QTemporaryDir m_dir;
};

void TestRunRecorder::recordsLandInOrder()
{
    const TrainConfig config = configFor("order");
    const segstudio::run::RunLayout files(config.runDir);
    RunRecorder recorder(true);
    recorder.stateChanged(RunState::Starting, 1, 0);  // before open(): dropped
    recorder.open(config, /*resuming=*/false, 0);
    QCOMPARE(loadTrainConfig(files.configFile().string()).model, config.model);

    segstudio::run::RunInfo info;
    info.model = config.model;
    info.totalIterations = 40;
    recorder.runStarted(info, 1, 0);
    recorder.stateChanged(RunState::Training, 1, 0);
    RunRecorder::TrainFigures figures;
    figures.epoch = 1;
    figures.iteration = 4;
    figures.loss = 1.25;
    figures.accuracy = 0.5;
    figures.learningRate = 0.01;
    figures.imagesPerSecond = 8.0;
    figures.elapsedSeconds = 3.0;
    figures.gpus = {{0, 0.9, 1e9, 8e9}};
    recorder.trained(figures);
    SegmentationMetrics metrics;
    metrics.loss = 0.75;
    metrics.meanIoU = 0.4;
    metrics.classIoU = {0.3, 0.5};
    recorder.validated(2, 8, metrics, 6.0);
    recorder.planned(2, 8, 30, 3, 60.0, "a note");
    recorder.failed("it broke", 2, 9);

    const auto records = segstudio::run::MetricsReader::readAll(files.metricsFile());
    std::vector<MetricsRecord::Kind> kinds;
    for (const auto& record : records)
        kinds.push_back(record.kind);
    using Kind = MetricsRecord::Kind;
    QCOMPARE(kinds, (std::vector<Kind>{Kind::Run, Kind::State, Kind::Train, Kind::System, Kind::Val, Kind::Plan,
                                       Kind::State}));
    QCOMPARE(records[0].run.model, config.model);
    QCOMPARE(records[0].run.totalIterations, std::int64_t(40));
    QCOMPARE(records[0].run.resumedAtEpoch, 1);
    QVERIFY(!records[0].run.segstudioVersion.empty());
    QVERIFY(!records[0].run.started.empty());
    QCOMPARE(records[1].state, RunState::Training);
    QCOMPARE(records[2].iteration, std::int64_t(4));
    QCOMPARE(*records[2].loss, 1.25);
    QCOMPARE(*records[2].learningRate, 0.01);
    QCOMPARE(records[3].gpus.size(), std::size_t(1));
    QCOMPARE(records[3].gpus[0].memoryTotal, 8e9);
    QCOMPARE(records[4].epoch, 2);
    QCOMPARE(*records[4].meanIoU, 0.4);
    QCOMPARE(records[4].classIoU, (std::vector<double>{0.3, 0.5}));
    QCOMPARE(records[5].run.totalIterations, std::int64_t(30));
    QCOMPARE(records[5].reason, std::string("a note"));
    QCOMPARE(records[6].state, RunState::Failed);
    QCOMPARE(records[6].reason, std::string("it broke"));

    // The log holds the lines said, in order: the train line, then the val line.
    const std::string log = text(files.logFile());
    const auto train = log.find("train  epoch 1 iter 4: loss 1.2500");
    const auto val = log.find("val    epoch 2 iter 8: loss 0.7500");
    QVERIFY2(train != std::string::npos && val != std::string::npos && train < val, log.c_str());
}

void TestRunRecorder::aResumeDropsTheIterationsAfterItsCheckpoint()
{
    const TrainConfig config = configFor("resume");
    {
        RunRecorder first(true);
        first.open(config, false, 0);
        for (std::int64_t iteration = 1; iteration <= 4; ++iteration) {
            RunRecorder::TrainFigures figures;
            figures.iteration = iteration;
            first.trained(figures);
        }
    }
    RunRecorder resumed(true);
    resumed.open(config, /*resuming=*/true, 2);  // its checkpoint was at iteration 2
    const auto records = segstudio::run::MetricsReader::readAll(segstudio::run::RunLayout(config.runDir).metricsFile());
    QCOMPARE(records.size(), std::size_t(2));
    QCOMPARE(records.back().iteration, std::int64_t(2));
}

void TestRunRecorder::aNonLeaderWritesNothing()
{
    const TrainConfig config = configFor("rank1");
    RunRecorder recorder(false);
    std::vector<std::string> said;
    recorder.setProgress([&](const std::string& line) { said.push_back(line); });
    recorder.open(config, false, 0);
    recorder.say("hello");
    recorder.runStarted({}, 1, 0);
    recorder.stateChanged(RunState::Training, 1, 0);
    recorder.trained({});
    recorder.validated(1, 1, {}, 1.0);
    recorder.planned(1, 1, 10, 1, 5.0, {});
    QVERIFY(said.empty());
    QVERIFY(fs::is_empty(config.runDir));
}

void TestRunRecorder::sayReachesTheProgressFunctionOnAFullDisk()
{
    if (!fs::exists("/dev/full"))
        QSKIP("this system has no /dev/full");
    const TrainConfig config = configFor("full");
    fs::create_symlink("/dev/full", segstudio::run::RunLayout(config.runDir).logFile());
    RunRecorder recorder(true);
    std::vector<std::string> said;
    recorder.setProgress([&](const std::string& line) { said.push_back(line); });
    recorder.open(config, false, 0);
    QVERIFY_THROWS_EXCEPTION(segstudio::run::FileError, recorder.say("the disk is full"));
    QCOMPARE(said, (std::vector<std::string>{"the disk is full"}));
}

QTEST_GUILESS_MAIN(TestRunRecorder)
#include "test_RunRecorder.moc"
