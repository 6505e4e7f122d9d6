#include "engine/input/CropSchedule.h"

#include <QtTest>

#include <cmath>

using namespace segstudio::engine;

// Progressive crops: four stages from the start scale to the full crop, sides in multiples of 8,
// never shrinking, and the mean cost ahead that the time-budget planner relies on.
class TestCropSchedule : public QObject {
    Q_OBJECT

private slots:
    void growsInFourStagesToTheFullCrop()
    {
        const CropSchedule crops(180, 240, 0.5);
        QVERIFY(crops.progressive());
        QCOMPARE(crops.cropAt(0.0), std::make_pair(88, 120));    // 90 x 120 rounded to multiples of 8
        QCOMPARE(crops.cropAt(0.24), std::make_pair(88, 120));
        QCOMPARE(crops.cropAt(0.25), std::make_pair(120, 160));  // 2/3
        QCOMPARE(crops.cropAt(0.5), std::make_pair(152, 200));   // 5/6: 150 x 200
        QCOMPARE(crops.cropAt(0.75), std::make_pair(180, 240));  // the full crop, as configured
        QCOMPARE(crops.cropAt(1.0), std::make_pair(180, 240));
        std::pair<int, int> previous{0, 0};
        for (int i = 0; i <= 100; ++i) {
            const auto crop = crops.cropAt(i / 100.0);
            QVERIFY(crop.first >= previous.first && crop.second >= previous.second);
            QVERIFY(crop.first <= 180 && crop.second <= 240);
            QVERIFY(crop.first % 8 == 0 || crop.first == 180);
            previous = crop;
        }
        QCOMPARE(crops.relativeCost(0.0), 0.25 + 0.75 * 88.0 * 120.0 / (180.0 * 240.0));
        QCOMPARE(crops.relativeCost(0.9), 1.0);
    }

    void meanCostIsTheAverageOfWhatIsAhead()
    {
        const CropSchedule crops(180, 240, 0.5);
        for (double from : {0.0, 0.1, 0.25, 0.6, 0.99}) {
            const int samples = 100000;
            double sum = 0.0;
            for (int i = 0; i < samples; ++i)
                sum += crops.relativeCost(from + (1.0 - from) * (i + 0.5) / samples);
            QVERIFY2(std::abs(crops.meanCost(from) - sum / samples) < 1e-4, qPrintable(QString::number(from)));
        }
        QCOMPARE(crops.meanCost(1.0), 1.0);
    }

    void offKeepsTheFullCrop()
    {
        for (const auto& crops : {CropSchedule(180, 240, 1.0), CropSchedule(0, 0, 0.5)}) {
            QVERIFY(!crops.progressive());
            QCOMPARE(crops.relativeCost(0.0), 1.0);
            QCOMPARE(crops.meanCost(0.0), 1.0);
        }
        QCOMPARE(CropSchedule(180, 240, 1.0).cropAt(0.0), std::make_pair(180, 240));
    }

    void smallCropsStayAtLeast32()
    {
        const CropSchedule crops(48, 64, 0.1);
        QCOMPARE(crops.cropAt(0.0), std::make_pair(32, 32));
        QCOMPARE(crops.cropAt(1.0), std::make_pair(48, 64));
    }
};

QTEST_GUILESS_MAIN(TestCropSchedule)
#include "test_CropSchedule.moc"
