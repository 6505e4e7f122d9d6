#include "TestPacks.h"
#include "engine/models/Checkpoint.h"
#include "engine/runtime/EngineError.h"
#include "engine/inference/Evaluator.h"
#include "engine/inference/LoadedModel.h"
#include "engine/models/ModelRegistry.h"
#include "engine/inference/Predictor.h"
#include "engine/training/Trainer.h"
#include "run/RunLayout.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include <caffe2/serialize/inline_container.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace segstudio::engine;
namespace fs = std::filesystem;

// Issue 22: a checkpoint whose bytes changed after it was written is refused by everything that
// loads it; parameters that became NaN/inf are never saved; a run stopped before its first
// checkpoint can be resumed.
class TestCheckpointSafety : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void flippedWeightByteIsRefusedEverywhere();
    void checkpointsWithoutChecksumStillLoad();
    void nonFiniteParametersAreNeverSaved();
    void aNonFiniteValidationNeverMakesABest();
    void resumeWithoutCheckpointStartsAgain();
    void resumeOfAnEmptyFolderSaysWhatToDo();

private:
    TrainConfig tinyConfig(const std::string& runName) const;
    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }

    QTemporaryDir m_dir;
};

namespace {

// The offset in the file of the middle of the checkpoint's largest tensor storage (a weight).
std::size_t largestStorageMiddle(const std::string& checkpoint)
{
    caffe2::serialize::PyTorchStreamReader reader(checkpoint);
    std::string largest;
    std::size_t largestSize = 0;
    for (const auto& name : reader.getAllRecords()) {
        if (name.rfind("data/", 0) != 0)
            continue;  // not a tensor storage
        const std::size_t size = std::get<1>(reader.getRecord(name));
        if (size > largestSize) {
            largestSize = size;
            largest = name;
        }
    }
    return reader.getRecordOffset(largest) + largestSize / 2;
}

void flipByte(const std::string& file, std::size_t offset)
{
    std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
    stream.seekg(std::streamoff(offset));
    const char before = char(stream.get());
    stream.seekp(std::streamoff(offset));
    stream.put(char(before ^ 0x5a));
}

template <typename Load>
void expectRefusal(const std::string& file, Load load)
{
    try {
        load();
        QFAIL(qPrintable(QString::fromStdString("a corrupt checkpoint was accepted: " + file)));
    } catch (const EngineError& error) {
        const std::string what = error.what();
        QVERIFY2(what.find(file) != std::string::npos && what.find("corrupt") != std::string::npos, error.what());
    }
}

}  // namespace

void TestCheckpointSafety::initTestCase()
{
    QVERIFY(m_dir.isValid());
    segstudio::enginetest::writeStripePack(path("train.pack"), 8, 16, 16, 3, 1);
    segstudio::enginetest::writeStripePack(path("val.pack"), 4, 16, 16, 3, 2);
}

TrainConfig TestCheckpointSafety::tinyConfig(const std::string& runName) const
{
    TrainConfig config = TrainConfig::segnetRecipe();
    config.trainPack = path("train.pack");
    config.valPack = path("val.pack");
    config.runDir = path(runName);
    config.model = "segnet-tiny";
    config.epochs = 1;
    config.batchSize = 4;
    config.device = "cpu";
    config.threads = 1;
    config.logInterval = 1;
    return config;
}

void TestCheckpointSafety::flippedWeightByteIsRefusedEverywhere()
{
    const TrainConfig config = tinyConfig("flipped");
    Trainer(config).run();
    const std::string last = segstudio::run::RunLayout(config.runDir).lastCheckpoint().string();
    LoadedModel::fromCheckpoint(last, torch::kCPU);  // intact: loads
    flipByte(last, largestStorageMiddle(last));      // one byte inside a weight tensor, as a bad disk flips it

    expectRefusal(last, [&] { LoadedModel::fromCheckpoint(last, torch::kCPU); });
    expectRefusal(last, [&] { Predictor(last, "cpu", 1); });
    expectRefusal(last, [&] { evaluateCheckpoint(last, config.valPack, EvaluateOptions{"cpu", 4, 1}); });
    // A refused resume writes nothing into the run (issue 46.10: it appended a "failed" record).
    const segstudio::run::RunLayout files(config.runDir);
    const auto read = [](const fs::path& file) {
        std::ifstream in(file, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string metrics = read(files.metricsFile()), settings = read(files.configFile()), log = read(files.logFile());
    QVERIFY(!metrics.empty() && !settings.empty());
    expectRefusal(last, [&] { Trainer::resume(config.runDir, 2); });  // 2 epochs: config.json would say so
    QCOMPARE(read(files.metricsFile()), metrics);
    QCOMPARE(read(files.configFile()), settings);
    QCOMPARE(read(files.logFile()), log);
}

void TestCheckpointSafety::checkpointsWithoutChecksumStillLoad()
{
    // Written as checkpoints were before they carried a checksum: model, state, RNG.
    const std::string file = path("old.pt");
    torch::manual_seed(3);
    auto model = ModelRegistry::instance().create("segnet-tiny", 3);
    torch::serialize::OutputArchive archive, modelArchive;
    model->save(modelArchive);
    archive.write("model", modelArchive);
    const nlohmann::json state = {{"model", "segnet-tiny"}, {"classNames", {"a", "b", "c"}}, {"height", 16}, {"width", 16}};
    archive.write("state", c10::IValue(state.dump()));
    archive.save_to(file);

    const auto loaded = LoadedModel::fromCheckpoint(file, torch::kCPU);
    QCOMPARE(loaded.classNames.size(), std::size_t(3));
    const auto original = model->parameters();
    const auto restored = loaded.model->parameters();
    for (std::size_t i = 0; i < original.size(); ++i)
        QVERIFY(torch::equal(original[i], restored[i]));
}

void TestCheckpointSafety::nonFiniteParametersAreNeverSaved()
{
    // Valid but absurd SGD settings: weight decay 1e38 x a batch-norm weight of 1, times lr 100,
    // overflows float. The first step has a finite loss (taken before the step) and leaves
    // infinite parameters, which only the next loss would show.
    TrainConfig config = tinyConfig("exploded");
    config.learningRate = 100;
    config.weightDecay = 1e38;
    config.maxIterations = 1;
    Trainer trainer(config);
    const auto outcome = trainer.run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Diverged));
    QVERIFY2(outcome.message.find("NaN/infinite") != std::string::npos, outcome.message.c_str());
    QVERIFY(!fs::exists(trainer.lastCheckpointPath()));
    QVERIFY(!fs::exists(trainer.bestCheckpointPath()));
}

// Issue 46.10: --lr 1e30 left an epoch-1 best.pt written after a validation whose loss was NaN:
// the weights were finite but so large that every logit overflowed. Such a validation scores
// nothing.
void TestCheckpointSafety::aNonFiniteValidationNeverMakesABest()
{
    TrainConfig config = tinyConfig("huge-lr");
    config.learningRate = 1e30;
    config.epochs = 3;
    config.valInterval = 1;  // a validation after the first step, whose weights are already huge
    Trainer trainer(config);
    const auto outcome = trainer.run();
    QVERIFY2(outcome.validated, outcome.message.c_str());
    QVERIFY2(!std::isfinite(outcome.lastValidation.loss), "the recipe no longer makes a non-finite validation");
    QCOMPARE(outcome.bestMeanIoU, -1.0);
    QVERIFY(!fs::exists(trainer.bestCheckpointPath()));
}

void TestCheckpointSafety::resumeWithoutCheckpointStartsAgain()
{
    // What a run killed before its first checkpoint leaves: config.json (written at its start), no
    // checkpoints/last.pt. (test_CheckpointCli kills a real trainer for it.)
    TrainConfig config = tinyConfig("unstarted");
    fs::create_directories(config.runDir);
    saveTrainConfig(config, segstudio::run::RunLayout(config.runDir).configFile().string());
    auto trainer = Trainer::resume(config.runDir);
    std::vector<std::string> lines;
    trainer->setProgress([&](const std::string& line) { lines.push_back(line); });
    const auto outcome = trainer->run();
    QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
    QCOMPARE(outcome.iterations, std::int64_t(2));
    QVERIFY(fs::exists(trainer->lastCheckpointPath()));
    QVERIFY2(!lines.empty() && lines.front().find("from the beginning") != std::string::npos, lines.front().c_str());
}

void TestCheckpointSafety::resumeOfAnEmptyFolderSaysWhatToDo()
{
    const std::string empty = path("empty-run");
    fs::create_directories(empty);
    try {
        Trainer::resume(empty);
        QFAIL("an empty folder was resumed");
    } catch (const EngineError& error) {
        const std::string what = error.what();
        QVERIFY2(what.find(empty) != std::string::npos && what.find("nothing to resume") != std::string::npos &&
                     what.find("segstudio-train train") != std::string::npos,
                 error.what());
    }
}

QTEST_GUILESS_MAIN(TestCheckpointSafety)
#include "test_CheckpointSafety.moc"
