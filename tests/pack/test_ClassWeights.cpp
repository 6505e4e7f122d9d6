#include "pack/ClassWeights.h"

#include <QtTest>

using namespace segstudio;

class TestClassWeights : public QObject {
    Q_OBJECT

private slots:
    // freq = {10/100, 30/100, 20/50} = {0.1, 0.3, 0.4}; median 0.3.
    void medianFrequencyOddCount()
    {
        const auto weights = pack::medianFrequencyWeights({10, 30, 20}, {100, 100, 50});
        QCOMPARE(weights.size(), std::size_t(3));
        QVERIFY(std::abs(weights[0] - 3.0) < 1e-12);
        QVERIFY(std::abs(weights[1] - 1.0) < 1e-12);
        QVERIFY(std::abs(weights[2] - 0.75) < 1e-12);
    }

    // Even count of present classes: median is the mean of the middle two; absent class gets 0.
    void medianFrequencyEvenCountAndAbsentClass()
    {
        const auto weights = pack::medianFrequencyWeights({10, 0, 20, 40, 80}, {100, 0, 100, 100, 100});
        const double median = (0.2 + 0.4) / 2;
        QVERIFY(std::abs(weights[0] - median / 0.1) < 1e-12);
        QCOMPARE(weights[1], 0.0);
        QVERIFY(std::abs(weights[4] - median / 0.8) < 1e-12);
    }

    // The square root keeps the order of median-frequency weights and absent classes at 0.
    void sqrtMedianFrequency()
    {
        const auto weights = pack::sqrtMedianFrequencyWeights({10, 0, 30, 20}, {100, 0, 100, 50});
        QVERIFY(std::abs(weights[0] - std::sqrt(3.0)) < 1e-12);
        QCOMPARE(weights[1], 0.0);
        QVERIFY(std::abs(weights[2] - 1.0) < 1e-12);
        QVERIFY(std::abs(weights[3] - std::sqrt(0.75)) < 1e-12);
    }

    void inverseFrequency()
    {
        const auto weights = pack::inverseFrequencyWeights({30, 10, 0});
        QVERIFY(std::abs(weights[0] - 40.0 / 60.0) < 1e-12);
        QVERIFY(std::abs(weights[1] - 2.0) < 1e-12);
        QCOMPARE(weights[2], 0.0);
    }
};

QTEST_GUILESS_MAIN(TestClassWeights)
#include "test_ClassWeights.moc"
