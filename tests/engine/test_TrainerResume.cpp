#include "TestPacks.h"
#include "engine/models/Checkpoint.h"
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/StopFlag.h"
#include "engine/training/Trainer.h"
#include "run/MetricsReader.h"
#include "run/RunLayout.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

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
    void crashAfterTheCheckpointLeavesOneCurve();
    void stopAtTheEndOfAnEpochResumesIntoTheNext();
    void stopAfterEpochFinishesTheEpochAndResumesExactly();
    void stateRecordsTellTheRunsStory();
    void valIntervalDividingTheEpochValidatesOnce();
    void validationCadenceCarriesOverAResume();

private:
    TrainConfig config(const std::string& runName, int epochs) const;
    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }
    double maxParameterDifference(const std::string& runA, const std::string& runB) const;

    std::vector<std::string> states(const std::string& run) const;

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
    TrainConfig c = TrainConfig::segnetRecipe();
    c.model = "segnet-tiny";
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

// Issue 11's resume bug: metrics of iterations after the last checkpoint (a crash, kill -9) were
// logged again by the resumed run, so curves went back and forth.
void TestTrainerResume::crashAfterTheCheckpointLeavesOneCurve()
{
    TrainConfig crashing = config("crashed", 2);
    crashing.logInterval = 1;
    {
        Trainer trainer(crashing);
        trainer.setIterationHook([](std::int64_t iteration) {
            if (iteration == 3)  // epoch 2: last.pt is the one of epoch 1 (iteration 2)
                throw std::runtime_error("simulated crash");
        });
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, trainer.run());
    }
    // The crash is on record, with its reason, for whoever watches the run.
    const auto records = segstudio::run::MetricsReader::readAll(segstudio::run::RunLayout(path("crashed")).metricsFile());
    QVERIFY(records.back().kind == segstudio::run::MetricsRecord::Kind::State);
    QVERIFY(records.back().state == segstudio::run::RunState::Failed);
    QCOMPARE(records.back().reason, std::string("simulated crash"));
    const fs::path metrics = fs::path(path("crashed")) / "metrics.jsonl";
    {
        std::ofstream torn(metrics, std::ios::app);  // and a line the crash cut short
        torn << R"({"kind":"train","epoch":2,"iter)";
    }
    const auto finished = Trainer::resume(path("crashed"))->run();
    QCOMPARE(finished.iterations, std::int64_t(4));
    std::ifstream in(metrics);
    std::vector<std::int64_t> trainIterations;
    for (std::string line; std::getline(in, line);) {
        const auto record = nlohmann::json::parse(line);  // every line is whole JSON again
        if (record.at("kind") == "train")
            trainIterations.push_back(record.at("iteration").get<std::int64_t>());
    }
    QCOMPARE(trainIterations, (std::vector<std::int64_t>{1, 2, 3, 4}));
}

// A stop request that comes with an epoch's last batch: the epoch is closed (validated, counted)
// before the checkpoint, so "stopped at epoch E" and a resume to E epochs agree.
void TestTrainerResume::stopAtTheEndOfAnEpochResumesIntoTheNext()
{
    Trainer trainer(config("epoch-end", 3));
    trainer.setIterationHook([](std::int64_t iteration) {
        if (iteration == 2)  // the last of epoch 1's two batches
            requestStop();
    });
    const auto stopped = trainer.run();
    clearStopRequest();
    QCOMPARE(int(stopped.status), int(TrainOutcome::Status::Stopped));
    QVERIFY2(stopped.message.find("stopped at epoch 2 iteration 2") != std::string::npos, stopped.message.c_str());
    QVERIFY(stopped.validated);  // epoch 1's validation ran before stopping
    const auto state = Checkpoint::readState(trainer.lastCheckpointPath());
    QCOMPARE(state.at("epoch").get<int>(), 1);
    QCOMPARE(state.at("batchInEpoch").get<int>(), 0);
    const auto finished = Trainer::resume(path("epoch-end"), 2)->run();
    QCOMPARE(int(finished.status), int(TrainOutcome::Status::Finished));
    QCOMPARE(finished.iterations, std::int64_t(4));
    QCOMPARE(finished.epochsCompleted, 2);
}

std::vector<std::string> TestTrainerResume::states(const std::string& run) const
{
    std::vector<std::string> names;
    for (const auto& record : segstudio::run::MetricsReader::readAll(segstudio::run::RunLayout(run).metricsFile()))
        if (record.kind == segstudio::run::MetricsRecord::Kind::State)
            names.push_back(segstudio::run::toString(record.state));
    return names;
}

// "Stop after this epoch" (SIGUSR1, the GUI's button) asked early in epoch 1 of 3: the epoch is
// trained and validated, then the run stops with a checkpoint; resumed to 2 epochs it equals the
// straight 2-epoch run.
void TestTrainerResume::stopAfterEpochFinishesTheEpochAndResumesExactly()
{
    Trainer trainer(config("after-epoch", 3));
    trainer.setIterationHook([](std::int64_t iteration) {
        if (iteration == 1)
            requestStopAfterEpoch();
    });
    const auto stopped = trainer.run();
    clearStopRequest();
    QVERIFY(!stopAfterEpochRequested());
    QCOMPARE(int(stopped.status), int(TrainOutcome::Status::Stopped));
    QCOMPARE(stopped.iterations, std::int64_t(2));
    QVERIFY(stopped.validated);
    QCOMPARE(states(path("after-epoch")).back(), std::string("stopped"));
    const auto finished = Trainer::resume(path("after-epoch"), 2)->run();
    QCOMPARE(int(finished.status), int(TrainOutcome::Status::Finished));
    QCOMPARE(finished.iterations, std::int64_t(4));
    QVERIFY(maxParameterDifference(m_straightRun, path("after-epoch")) <= 1e-6);
}

// What a watcher reads about the straight 2-epoch run: it started, trained, validated after each
// epoch, finished.
void TestTrainerResume::stateRecordsTellTheRunsStory()
{
    const std::vector<std::string> expected{"starting", "training", "validating", "training",
                                            "validating", "training", "finished"};
    QCOMPARE(states(m_straightRun), expected);
    const auto records = segstudio::run::MetricsReader::readAll(segstudio::run::RunLayout(m_straightRun).metricsFile());
    QVERIFY(records.front().kind == segstudio::run::MetricsRecord::Kind::Run);
    QCOMPARE(records.front().run.totalIterations, std::int64_t(4));
    QCOMPARE(records.front().run.iterationsPerEpoch, std::int64_t(2));
    QCOMPARE(records.front().run.model, std::string("segnet-tiny"));
    // The end is in the last epoch, not one past it ("2 of 2", never "3 of 2").
    QCOMPARE(records.back().epoch, 2);
}

// Issue 22 (item 20): --val-interval 2 with 2 batches an epoch asked for a validation at the same
// iteration as the epoch's end did, and both were written: one val record per iteration.
void TestTrainerResume::valIntervalDividingTheEpochValidatesOnce()
{
    TrainConfig c = config("val-interval", 2);
    c.valInterval = 2;
    const auto outcome = Trainer(c).run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
    std::vector<std::int64_t> validated;
    for (const auto& record : segstudio::run::MetricsReader::readAll(segstudio::run::RunLayout(path("val-interval")).metricsFile()))
        if (record.kind == segstudio::run::MetricsRecord::Kind::Val)
            validated.push_back(record.iteration);
    QCOMPARE(validated, (std::vector<std::int64_t>{2, 4}));
}

// A run stopped every two epochs with a validation every three still validates at epoch 3: the
// count since the last validation is kept in the checkpoint, not restarted by the resume.
void TestTrainerResume::validationCadenceCarriesOverAResume()
{
    TrainConfig c = config("cadence", 6);
    c.valEpochs = 3;
    const auto stopAt = [](std::int64_t at) {
        return [at](std::int64_t iteration) {
            if (iteration == at)
                requestStop();
        };
    };
    Trainer first(c);
    first.setIterationHook(stopAt(4));  // the end of epoch 2 (2 batches an epoch)
    QCOMPARE(int(first.run().status), int(TrainOutcome::Status::Stopped));
    clearStopRequest();
    auto second = Trainer::resume(path("cadence"));
    second->setIterationHook(stopAt(8));  // the end of epoch 4
    QCOMPARE(int(second->run().status), int(TrainOutcome::Status::Stopped));
    clearStopRequest();
    std::vector<int> validated;
    for (const auto& record : segstudio::run::MetricsReader::readAll(segstudio::run::RunLayout(path("cadence")).metricsFile()))
        if (record.kind == segstudio::run::MetricsRecord::Kind::Val)
            validated.push_back(record.epoch);
    QCOMPARE(validated, (std::vector<int>{3}));
}

QTEST_GUILESS_MAIN(TestTrainerResume)
#include "test_TrainerResume.moc"
