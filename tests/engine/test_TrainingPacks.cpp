#include "TestPacks.h"
#include "engine/runtime/EngineError.h"
#include "engine/training/TrainingPacks.h"
#include "pack/ClassWeights.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace segstudio::engine;
namespace fs = std::filesystem;

// The packs of a run, opened and checked against its configuration before any training; the
// class weights from the training pack's header.
class TestTrainingPacks : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void classesAndWeightsComeFromTheTrainingPack();
    void packsThatCannotTrainAreRefused_data();
    void packsThatCannotTrainAreRefused();

private:
    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }
    TrainConfig config() const
    {
        TrainConfig config;
        config.trainPack = path("train.pack");
        config.valPack = path("val.pack");
        config.batchSize = 2;
        return config;
    }

    QTemporaryDir m_dir;
};

void TestTrainingPacks::initTestCase()
{
    QVERIFY(m_dir.isValid());
    segstudio::enginetest::writeStripePack(path("train.pack"), 6, 16, 24, 3);
    segstudio::enginetest::writeStripePack(path("val.pack"), 2, 16, 24, 3, 9);
    segstudio::enginetest::writeStripePack(path("four-classes.pack"), 2, 16, 24, 4);
    std::ofstream(path("garbage.pack")) << "not a pack";
}

void TestTrainingPacks::classesAndWeightsComeFromTheTrainingPack()
{
    TrainConfig median = config();
    median.classWeighting = "median";
    const TrainingPacks packs(median, 1);
    QCOMPARE(packs.classes(), 3);
    QCOMPARE(packs.classNames(), (std::vector<std::string>{"class0", "class1", "class2"}));
    QCOMPARE(packs.train().size(), std::size_t(6));
    QVERIFY(packs.validation() != nullptr);
    std::vector<std::uint64_t> pixels, imagePixels;
    for (const auto& c : packs.train().spec().classes) {
        pixels.push_back(c.pixelCount);
        imagePixels.push_back(c.imagePixelCount);
    }
    QCOMPARE(packs.classWeights(), segstudio::pack::medianFrequencyWeights(pixels, imagePixels));

    TrainConfig unweighted = config();
    unweighted.valPack.clear();
    unweighted.classWeighting = "none";
    const TrainingPacks plain(unweighted, 1);
    QVERIFY(plain.classWeights().empty());
    QVERIFY(plain.validation() == nullptr);
}

void TestTrainingPacks::packsThatCannotTrainAreRefused_data()
{
    QTest::addColumn<QString>("change");  // what the configuration gets wrong
    QTest::addColumn<int>("world");
    QTest::addColumn<QString>("message");  // a part of the refusal
    QTest::newRow("damaged") << "garbage" << 1 << "refusing to train on a bad pack";
    QTest::newRow("class count") << "classes" << 1 << "pack has 3 classes, config asks for 5";
    QTest::newRow("validation classes") << "val" << 1 << "validation pack has 4 classes, the training pack 3";
    QTest::newRow("crop") << "crop" << 1 << "the crop 32x24 is larger than its images (16x24)";
    QTest::newRow("one batch") << "batch" << 1 << "6 records are fewer than one batch of 8";
    QTest::newRow("one batch a rank") << "none" << 4 << "fewer than one batch of 2 on each of 4 ranks";
}

void TestTrainingPacks::packsThatCannotTrainAreRefused()
{
    QFETCH(QString, change);
    QFETCH(int, world);
    QFETCH(QString, message);
    TrainConfig wrong = config();
    if (change == "garbage")
        wrong.trainPack = path("garbage.pack");
    else if (change == "classes")
        wrong.classes = 5;
    else if (change == "val")
        wrong.valPack = path("four-classes.pack");
    else if (change == "crop")
        wrong.cropHeight = 32, wrong.cropWidth = 24;
    else if (change == "batch")
        wrong.batchSize = 8;
    try {
        TrainingPacks packs(wrong, world);
        QFAIL("accepted");
    } catch (const EngineError& error) {
        QVERIFY2(std::string(error.what()).find(message.toStdString()) != std::string::npos, error.what());
    }
}

QTEST_GUILESS_MAIN(TestTrainingPacks)
#include "test_TrainingPacks.moc"
