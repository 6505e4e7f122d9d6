#include "data/project/DatasetSplitter.h"

#include <QtTest>
#include <algorithm>

using namespace segstudio;

class TestDatasetSplitter : public QObject {
    Q_OBJECT

private slots:
    void sameSeedSameSplit()
    {
        QCOMPARE(data::DatasetSplitter::split(500, {}, 42), data::DatasetSplitter::split(500, {}, 42));
        QVERIFY(data::DatasetSplitter::split(500, {}, 42) != data::DatasetSplitter::split(500, {}, 43));
    }

    void ratiosGiveTheCounts_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<double>("train");
        QTest::addColumn<double>("val");
        QTest::addColumn<double>("test");
        QTest::addColumn<int>("expectedTrain");
        QTest::addColumn<int>("expectedVal");
        QTest::newRow("default 60/20/20") << 701 << 0.6 << 0.2 << 0.2 << 421 << 140;
        QTest::newRow("camvid-sized") << 468 << 0.6 << 0.2 << 0.2 << 281 << 94;
        QTest::newRow("all train") << 10 << 1.0 << 0.0 << 0.0 << 10 << 0;
        QTest::newRow("unnormalised") << 100 << 3.0 << 1.0 << 1.0 << 60 << 20;
    }

    void ratiosGiveTheCounts()
    {
        QFETCH(int, count);
        QFETCH(double, train);
        QFETCH(double, val);
        QFETCH(double, test);
        QFETCH(int, expectedTrain);
        QFETCH(int, expectedVal);
        const auto splits = data::DatasetSplitter::split(std::size_t(count), {train, val, test}, 3);
        QCOMPARE(int(splits.size()), count);
        QCOMPARE(int(std::count(splits.begin(), splits.end(), data::Split::Train)), expectedTrain);
        QCOMPARE(int(std::count(splits.begin(), splits.end(), data::Split::Val)), expectedVal);
        QCOMPARE(int(std::count(splits.begin(), splits.end(), data::Split::Test)), count - expectedTrain - expectedVal);
    }

    void splitIsShuffledNotSequential()
    {
        const auto splits = data::DatasetSplitter::split(100, {}, 1);
        const auto firstTest = std::find(splits.begin(), splits.end(), data::Split::Test);
        QVERIFY(firstTest - splits.begin() < 60);  // a sequential split would start test at 80
    }
};

QTEST_GUILESS_MAIN(TestDatasetSplitter)
#include "test_DatasetSplitter.moc"
