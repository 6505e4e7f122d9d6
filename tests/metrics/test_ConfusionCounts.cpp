#include "metrics/ConfusionCounts.h"
#include "metrics/ImageScore.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

using segstudio::metrics::ConfusionCounts;
using segstudio::metrics::scoreImage;

namespace {
bool near(double a, double b) { return std::abs(a - b) < 1e-12; }
}  // namespace

// The one metric implementation (host side), against values worked out by hand.
class TestConfusionCounts : public QObject {
    Q_OBJECT

private slots:
    void countsAndMetrics()
    {
        // truth:  0 0 0 0 1 1 2 2 255
        // guess:  0 0 0 1 1 2 2 2 0      (the unlabelled pixel must not count)
        const std::uint8_t truth[] = {0, 0, 0, 0, 1, 1, 2, 2, 255};
        const std::uint8_t guess[] = {0, 0, 0, 1, 1, 2, 2, 2, 0};
        ConfusionCounts confusion(3);
        confusion.add(truth, guess, 9);
        QCOMPARE(confusion.counts(), (std::vector<std::int64_t>{3, 1, 0, 0, 1, 1, 0, 0, 2}));
        QCOMPARE(confusion.labelledPixels(), std::int64_t(8));
        QCOMPARE(confusion.wrongPixels(), std::int64_t(2));
        const auto m = confusion.metrics();
        QVERIFY(near(m.globalAccuracy, 6.0 / 8.0));
        QVERIFY(near(m.meanClassAccuracy, (0.75 + 0.5 + 1.0) / 3.0));
        const double iou[3] = {0.75, 1.0 / 3.0, 2.0 / 3.0};  // 3/4, 1/(2+2-1), 2/(2+3-2)
        for (int c = 0; c < 3; ++c)
            QVERIFY(near(m.classIoU[std::size_t(c)], iou[c]));
        QVERIFY(near(m.weightedIoU, (4.0 * iou[0] + 2.0 * iou[1] + 2.0 * iou[2]) / 8.0));
        const auto normalised = confusion.normalisedByTruth();
        QVERIFY(near(normalised[0], 0.75) && near(normalised[1], 0.25) && near(normalised[4], 0.5) && near(normalised[8], 1.0));
    }

    void classesAbsentFromTruthOrPrediction()
    {
        // Class 1 is in neither map: NaN, left out. Class 2 is predicted, never true: IoU 0, and
        // no accuracy. Class 3 is true, never predicted: accuracy 0, IoU 0.
        const std::uint8_t truth[] = {0, 0, 3, 3};
        const std::uint8_t guess[] = {0, 2, 0, 0};
        ConfusionCounts confusion(4);
        confusion.add(truth, guess, 4);
        const auto m = confusion.metrics();
        QVERIFY(std::isnan(m.classIoU[1]) && std::isnan(m.classAccuracy[1]));
        QCOMPARE(m.classIoU[2], 0.0);
        QVERIFY(std::isnan(m.classAccuracy[2]));
        QCOMPARE(m.classAccuracy[3], 0.0);
        QCOMPARE(m.classIoU[3], 0.0);
        QVERIFY(near(m.classIoU[0], 1.0 / 4.0));              // 1 / (2 + 3 - 1)
        QVERIFY(near(m.meanIoU, (0.25 + 0.0 + 0.0) / 3.0));   // classes 0, 2, 3
        QVERIFY(near(m.meanClassAccuracy, (0.5 + 0.0) / 2));  // classes 0, 3
    }

    void allUnlabelledImageHasNoScore()
    {
        const std::uint8_t truth[] = {255, 255, 255, 255};
        const std::uint8_t guess[] = {0, 1, 0, 1};
        const auto score = scoreImage(truth, guess, 2, 2, 2);
        QCOMPARE(score.labelledPixels(), std::int64_t(0));
        QVERIFY(std::isnan(score.globalAccuracy));
        QVERIFY(std::isnan(score.meanIoU));
        QVERIFY(std::isnan(score.meanBoundaryF1));  // no class in either map once unlabelled pixels go
        const auto m = score.confusion.metrics();
        QCOMPARE(m.pixels, std::uint64_t(0));
    }

    void perImageScore()
    {
        // 2x2: truth 0 0 / 1 1, prediction 0 1 / 1 1.
        const std::uint8_t truth[] = {0, 0, 1, 1};
        const std::uint8_t guess[] = {0, 1, 1, 1};
        const auto score = scoreImage(truth, guess, 2, 2, 2);
        QCOMPARE(score.wrongPixels(), std::int64_t(1));
        QVERIFY(near(score.globalAccuracy, 0.75));
        QVERIFY(near(score.meanIoU, (1.0 / 2.0 + 2.0 / 3.0) / 2.0));
    }

    void badInputIsRefused()
    {
        const std::uint8_t truth[] = {0};
        const std::uint8_t guess[] = {5};
        ConfusionCounts confusion(3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, confusion.add(truth, guess, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ConfusionCounts(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, confusion.add(ConfusionCounts(2)));
    }
};

QTEST_GUILESS_MAIN(TestConfusionCounts)
#include "test_ConfusionCounts.moc"
