#include "engine/runtime/EngineError.h"
#include "engine/training/LrSchedule.h"
#include "engine/training/TrainConfig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace segstudio::engine;

// config.json round trip, validation messages and the learning-rate schedules.
class TestTrainConfig : public QObject {
    Q_OBJECT

private slots:
    void roundTripsThroughFile();
    void missingKeysTakeDefaults();
    void rejectsBadValues_data();
    void rejectsBadValues();
    void schedules();
    void segnetRecipeIsThePublishedOne();
    void olderConfigsKeepTheirEncoderWeights();
    void olderRunsResumeOnWholeImages();
    void weightDecayDefaultsToTheOptimisers();
};

void TestTrainConfig::roundTripsThroughFile()
{
    QTemporaryDir dir;
    TrainConfig config;
    config.trainPack = "a.pack";
    config.model = "segnet";
    config.optimizer = "adamw";
    config.learningRate = 3e-4;
    config.schedule = "cosine";
    config.seed = 42;
    config.scaleCrop = true;
    config.colorJitter = 0.2;
    config.cropHeight = 90;
    config.cropWidth = 120;
    config.classCrops = 0.5;
    const std::string file = dir.filePath(QStringLiteral("config.json")).toStdString();
    saveTrainConfig(config, file);
    QVERIFY(loadTrainConfig(file) == config);
}

void TestTrainConfig::missingKeysTakeDefaults()
{
    const auto config = trainConfigFromJson(nlohmann::json{{"trainPack", "x.pack"}, {"epochs", 3}});
    QCOMPARE(config.epochs, 3);
    // The defaults that learn (docs/ENGINE.md): DeepLabV3+ with a ResNet-18 encoder, in bf16 where
    // the CPU has it, AdamW, cosine after an automatic warm-up.
    QCOMPARE(config.model, std::string("deeplabv3plus-resnet18-256-s16"));
    QCOMPARE(config.amp, std::string("auto"));
    QCOMPARE(config.optimizer, std::string("adamw"));
    QCOMPARE(config.schedule, std::string("cosine"));
    QCOMPARE(config.warmupIterations, -1);
    QCOMPARE(config.batchSize, 8);
    QCOMPARE(config.cropShare, 0.4);  // crops of 40 % of each side (144 x 192 on CamVid's 360x480)
    QCOMPARE(config.cropHeight, 0);
    QVERIFY_THROWS_EXCEPTION(EngineError, trainConfigFromJson(nlohmann::json{{"epochs", "many"}}));
    // Issue 60.7: --help says [0, 1]; 1 is a crop of the whole image, whole images as 0 is.
    trainConfigFromJson(nlohmann::json{{"trainPack", "x.pack"}, {"cropShare", 1.0}}).validate();
    // A config.json of an older run names its rank: the launch decides that now, so it is ignored.
    const auto old = trainConfigFromJson(nlohmann::json{{"trainPack", "x.pack"}, {"rank", 3}, {"worldSize", 4}});
    QVERIFY(!toJson(old).contains("rank"));
    QVERIFY(!toJson(old).contains("worldSize"));
}

void TestTrainConfig::rejectsBadValues_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("others");  // a JSON object of the other keys the row sets
    QTest::newRow("optimizer") << QStringLiteral("optimizer") << QStringLiteral("\"rmsprop\"") << QStringLiteral("{}");
    QTest::newRow("batch") << QStringLiteral("batchSize") << QStringLiteral("0") << QStringLiteral("{}");
    QTest::newRow("weighting") << QStringLiteral("classWeighting") << QStringLiteral("\"cubic\"") << QStringLiteral("{}");
    QTest::newRow("amp") << QStringLiteral("amp") << QStringLiteral("\"fp8\"") << QStringLiteral("{}");
    QTest::newRow("accumulate") << QStringLiteral("accumulate") << QStringLiteral("3") << QStringLiteral("{}");  // 4 images do not split in 3
    QTest::newRow("sync") << QStringLiteral("gradientSync") << QStringLiteral("\"ring\"") << QStringLiteral("{}");
    QTest::newRow("jitter") << QStringLiteral("colorJitter") << QStringLiteral("1.5") << QStringLiteral("{}");
    QTest::newRow("class crops > 1") << QStringLiteral("classCrops") << QStringLiteral("1.5") << QStringLiteral("{}");
    QTest::newRow("class crops, whole images") << QStringLiteral("classCrops") << QStringLiteral("0.5")
                                               << QStringLiteral(R"({"cropShare": 0})");
    QTest::newRow("crop share > 1") << QStringLiteral("cropShare") << QStringLiteral("1.01") << QStringLiteral("{}");
    QTest::newRow("class crops, crop share 1") << QStringLiteral("classCrops") << QStringLiteral("0.5")
                                               << QStringLiteral(R"({"cropShare": 1})");
    QTest::newRow("crop share < 0") << QStringLiteral("cropShare") << QStringLiteral("-0.4") << QStringLiteral("{}");
    // Issue 46.10: 1e12 s "finished" after 4 iterations; a budget is at most a year.
    QTest::newRow("budget past a year") << QStringLiteral("timeBudgetSeconds") << QStringLiteral("1e12") << QStringLiteral("{}");
}

void TestTrainConfig::rejectsBadValues()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, others);
    nlohmann::json json = nlohmann::json::parse(others.toStdString());
    json["trainPack"] = "x.pack";
    json[key.toStdString()] = nlohmann::json::parse(value.toStdString());
    const auto config = trainConfigFromJson(json);
    try {
        config.validate();
        QFAIL("bad value accepted");
    } catch (const EngineError& error) {
        QVERIFY2(std::string(error.what()).find(key.toStdString()) != std::string::npos, error.what());
    }
}

void TestTrainConfig::schedules()
{
    TrainConfig config;
    config.learningRate = 0.1;
    config.schedule = "step";
    config.dropPeriod = 2;
    config.dropFactor = 0.5;
    config.warmupIterations = 0;
    LrSchedule step(config, /*iterationsPerEpoch=*/10, /*total=*/100);
    QCOMPARE(step.at(0), 0.1);
    QCOMPARE(step.at(19), 0.1);
    QCOMPARE(step.at(20), 0.05);
    QCOMPARE(step.at(45), 0.025);

    config.schedule = "cosine";
    config.minLearningRate = 0.0;
    config.warmupIterations = 4;
    LrSchedule cosine(config, 10, 100);
    QVERIFY(std::abs(cosine.at(0) - 0.25 * 0.1) < 1e-12);  // warm-up: (0+1)/4 of the cosine at 0
    QVERIFY(std::abs(cosine.at(50) - 0.05) < 1e-12);
    QVERIFY(std::abs(cosine.at(100)) < 1e-12);

    // Automatic warm-up: a tenth of a short run, at most 100 iterations of a long one.
    config.warmupIterations = -1;
    config.schedule = "none";
    LrSchedule shortRun(config, 10, 50);
    QVERIFY(std::abs(shortRun.at(0) - 0.1 / 5) < 1e-12);
    QCOMPARE(shortRun.at(5), 0.1);
    LrSchedule longRun(config, 10, 100000);
    QVERIFY(longRun.at(98) < 0.1);
    QCOMPARE(longRun.at(100), 0.1);
}

void TestTrainConfig::segnetRecipeIsThePublishedOne()
{
    const auto recipe = TrainConfig::segnetRecipe();
    QCOMPARE(recipe.model, std::string("segnet"));
    QCOMPARE(recipe.optimizer, std::string("sgd"));
    QCOMPARE(recipe.learningRate, 1e-3);
    QCOMPARE(recipe.momentum, 0.9);
    QCOMPARE(recipe.weightDecay, 5e-4);
    QCOMPARE(recipe.batchSize, 4);
    QCOMPARE(recipe.epochs, 100);
    QCOMPARE(recipe.schedule, std::string("none"));
    QCOMPARE(recipe.warmupIterations, 0);
    QVERIFY(recipe.flip && recipe.translate == 10 && !recipe.scaleCrop && recipe.cropHeight == 0);
    QCOMPARE(recipe.cropShare, 0.0);  // whole images
    QCOMPARE(recipe.classWeighting, std::string("median"));
    // cuDNN's algorithm search: on for the recipe's dense convolutions, off by default.
    QVERIFY(recipe.cudnnBenchmark);
    QVERIFY(!TrainConfig{}.cudnnBenchmark);
    // CUDA graphs: on wherever the step allows them, also in a run's config of before them.
    QVERIFY(recipe.cudaGraphs && TrainConfig{}.cudaGraphs);
    QVERIFY(trainConfigFromJson(nlohmann::json{{"trainPack", "x.pack"}}).cudaGraphs);
    QVERIFY(!trainConfigFromJson(nlohmann::json{{"trainPack", "x.pack"}, {"cudaGraphs", false}}).cudaGraphs);
    LrSchedule constant(recipe, 92, 9200);
    QCOMPARE(constant.at(0), 1e-3);
    QCOMPARE(constant.at(9000), 1e-3);
}

void TestTrainConfig::olderConfigsKeepTheirEncoderWeights()
{
    // Runs written before the rename say "vggWeights": resuming them must still load the encoder.
    const auto old = trainConfigFromJson(nlohmann::json{{"trainPack", "x.pack"}, {"vggWeights", "vgg16.pt"}});
    QCOMPARE(old.encoderWeights, std::string("vgg16.pt"));
    QVERIFY(!toJson(old).contains("vggWeights"));
    nlohmann::json crop{{"trainPack", "x.pack"}, {"cropHeight", 10}};
    try {
        trainConfigFromJson(crop).validate();
        QFAIL("a crop with one side accepted");
    } catch (const EngineError& error) {
        QVERIFY2(std::string(error.what()).find("cropWidth") != std::string::npos, error.what());
    }
}

void TestTrainConfig::olderRunsResumeOnWholeImages()
{
    // A run recorded before cropShare existed trained on whole images (cropHeight 0): resumed, it
    // must go on so, while a configuration the user writes gets today's default crops.
    const nlohmann::json old{{"trainPack", "x.pack"}, {"cropHeight", 0}, {"cropWidth", 0}};
    QCOMPARE(recordedRunConfigFromJson(old).cropShare, 0.0);
    QCOMPARE(trainConfigFromJson(old).cropShare, TrainConfig{}.cropShare);
    nlohmann::json recent = old;
    recent["cropShare"] = 0.5;
    QCOMPARE(recordedRunConfigFromJson(recent).cropShare, 0.5);

    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("config.json")).toStdString();
    {
        std::ofstream out(file);
        out << old.dump();
    }
    QCOMPARE(loadRecordedRunConfig(file).cropShare, 0.0);
    QCOMPARE(loadTrainConfig(file).cropShare, TrainConfig{}.cropShare);
}

void TestTrainConfig::weightDecayDefaultsToTheOptimisers()
{
    // -1 stands for the optimiser's own default, written as -1 so a resumed run keeps meaning it.
    TrainConfig config;
    QCOMPARE(config.weightDecay, -1.0);
    QCOMPARE(config.effectiveWeightDecay(), 0.1);
    config.optimizer = "sgd";
    QCOMPARE(config.effectiveWeightDecay(), 1e-2);
    config.optimizer = "adam";
    QCOMPARE(config.effectiveWeightDecay(), 1e-2);
    // A run that names a decay gets it, zero included; a run written before -1 existed keeps its 1e-2.
    config.optimizer = "adamw";
    config.weightDecay = 0.0;
    QCOMPARE(config.effectiveWeightDecay(), 0.0);
    const auto older = trainConfigFromJson(nlohmann::json{{"trainPack", "x.pack"}, {"weightDecay", 1e-2}});
    QCOMPARE(older.effectiveWeightDecay(), 1e-2);
    config.trainPack = "x.pack";
    config.weightDecay = -1;
    config.validate();
    config.weightDecay = -0.5;
    QVERIFY_THROWS_EXCEPTION(EngineError, config.validate());
}

QTEST_GUILESS_MAIN(TestTrainConfig)
#include "test_TrainConfig.moc"
