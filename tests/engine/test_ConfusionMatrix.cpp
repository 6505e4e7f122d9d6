#include "engine/inference/ConfusionMatrix.h"

#include <QtTest>

#include <cmath>

using segstudio::engine::ConfusionMatrix;

// Metrics from the device-side confusion matrix against values worked out by hand.
class TestConfusionMatrix : public QObject {
    Q_OBJECT

private slots:
    void countsAndMetrics();
    void absentClassIsNaN();
};

void TestConfusionMatrix::countsAndMetrics()
{
    ConfusionMatrix confusion(3, torch::kCPU);
    // truth:  0 0 0 0 1 1 2 2 255
    // guess:  0 0 0 1 1 2 2 2 0      (the unlabelled pixel must not count)
    const auto truth = torch::tensor({0, 0, 0, 0, 1, 1, 2, 2, 255}, torch::kUInt8).view({1, 3, 3});
    const auto guess = torch::tensor({0, 0, 0, 1, 1, 2, 2, 2, 0}, torch::kLong).view({1, 3, 3});
    confusion.add(guess, truth);
    const std::vector<std::int64_t> expectedCounts{3, 1, 0, 0, 1, 1, 0, 0, 2};
    QCOMPARE(confusion.counts(), expectedCounts);

    const auto m = confusion.metrics();
    QCOMPARE(m.pixels, std::uint64_t(8));
    QVERIFY(std::abs(m.globalAccuracy - 6.0 / 8.0) < 1e-12);
    // class accuracy: 3/4, 1/2, 2/2
    QVERIFY(std::abs(m.meanClassAccuracy - (0.75 + 0.5 + 1.0) / 3.0) < 1e-12);
    // IoU: c0 3/(4+3-3)=3/4, c1 1/(2+2-1)=1/3, c2 2/(2+3-2)=2/3
    const double iou[3] = {0.75, 1.0 / 3.0, 2.0 / 3.0};
    for (int c = 0; c < 3; ++c)
        QVERIFY(std::abs(m.classIoU[c] - iou[c]) < 1e-12);
    QVERIFY(std::abs(m.meanIoU - (iou[0] + iou[1] + iou[2]) / 3.0) < 1e-12);
    QVERIFY(std::abs(m.weightedIoU - (4.0 * iou[0] + 2.0 * iou[1] + 2.0 * iou[2]) / 8.0) < 1e-12);

    // Accumulates across batches.
    confusion.add(guess, truth);
    QCOMPARE(confusion.counts()[0], std::int64_t(6));
    confusion.reset();
    QCOMPARE(confusion.metrics().pixels, std::uint64_t(0));
}

void TestConfusionMatrix::absentClassIsNaN()
{
    ConfusionMatrix confusion(3, torch::kCPU);
    confusion.add(torch::tensor({0, 2}, torch::kLong), torch::tensor({0, 0}, torch::kLong));
    const auto m = confusion.metrics();
    QVERIFY(std::isnan(m.classIoU[1]));       // neither true nor predicted: left out
    QCOMPARE(m.classIoU[2], 0.0);             // predicted but never true: a false positive, IoU 0
    QVERIFY(std::isnan(m.classAccuracy[2]));  // accuracy needs the class in the truth
    QVERIFY(std::abs(m.meanIoU - 0.25) < 1e-12);  // (0.5 + 0) / 2
    QVERIFY(std::abs(m.meanClassAccuracy - 0.5) < 1e-12);
    QVERIFY(std::abs(m.globalAccuracy - 0.5) < 1e-12);
}

QTEST_GUILESS_MAIN(TestConfusionMatrix)
#include "test_ConfusionMatrix.moc"
