#include "PairedBootstrap.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

using segstudio::bench::PairedBootstrap;

// The interval bench_annotator gives beside propagate / smart (issue 61): exact where the answer is
// known (pairs in a fixed ratio), wide where the pairs disagree, the same for the same seed.
class TestPairedBootstrap : public QObject {
    Q_OBJECT

private slots:
    void theMedianOfAnEvenCountIsTheMeanOfItsMiddle()
    {
        QCOMPARE(PairedBootstrap::median({3, 1, 2}), 2.0);
        QCOMPARE(PairedBootstrap::median({50, 17, 5, 3, 26, 16, 5, 31}), 16.5);  // rv15's propagate, run30v
    }

    void pairsInOneRatioGiveThatRatioExactly()
    {
        const std::vector<double> smart{50, 49, 32, 22, 38, 31, 11, 23};
        std::vector<double> half;
        for (double actions : smart)
            half.push_back(actions / 2);
        const auto interval = PairedBootstrap::medianRatio(half, smart);
        QCOMPARE(interval.estimate, 0.5);
        QCOMPARE(interval.low, 0.5);
        QCOMPARE(interval.high, 0.5);
    }

    void pairsThatDisagreeGiveAWideIntervalAroundTheEstimate()
    {
        // rv15 with run30v (docs/LABELING.md): 16.5 / 31.5 = 0.52 on 8 frames.
        const std::vector<double> smart{50, 49, 32, 22, 38, 31, 11, 23};
        const std::vector<double> propagate{50, 17, 5, 3, 26, 16, 5, 31};
        const auto interval = PairedBootstrap::medianRatio(propagate, smart);
        QCOMPARE(interval.estimate, 16.5 / 31.5);
        QVERIFY(interval.low < interval.estimate && interval.estimate < interval.high);
        QVERIFY2(interval.high - interval.low > 0.4, "8 frames cannot pin this ratio to a tenth");
        const auto again = PairedBootstrap::medianRatio(propagate, smart);
        QCOMPARE(again.low, interval.low);
        QCOMPARE(again.high, interval.high);
        // A wider level holds the narrower one.
        const auto wider = PairedBootstrap::medianRatio(propagate, smart, 0.99);
        QVERIFY(wider.low <= interval.low && wider.high >= interval.high);
    }

    void unpairedSamplesAreRefused()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PairedBootstrap::medianRatio({1, 2}, {1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PairedBootstrap::medianRatio({}, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PairedBootstrap::medianRatio({1}, {1}, 1.0));
        QVERIFY(std::isinf(PairedBootstrap::medianRatio({1, 2}, {0, 0}).estimate));
    }
};

QTEST_APPLESS_MAIN(TestPairedBootstrap)
#include "test_PairedBootstrap.moc"
