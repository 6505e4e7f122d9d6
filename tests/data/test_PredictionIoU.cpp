#include "TestFiles.h"
#include "data/DataError.h"
#include "data/PredictionIoU.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace segstudio;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

cv::Mat row(const std::vector<int>& values)
{
    cv::Mat mat(1, int(values.size()), CV_8UC1);
    for (std::size_t i = 0; i < values.size(); ++i)
        mat.at<std::uint8_t>(0, int(i)) = std::uint8_t(values[i]);
    return mat;
}

}  // namespace

class TestPredictionIoU : public QObject {
    Q_OBJECT

private slots:
    void scorePrediction_data()
    {
        QTest::addColumn<std::vector<int>>("predicted");
        QTest::addColumn<std::vector<int>>("truth");
        QTest::addColumn<double>("iou");  // -1 = none
        QTest::newRow("perfect") << std::vector<int>{0, 1, 2} << std::vector<int>{0, 1, 2} << 1.0;
        QTest::newRow("all wrong") << std::vector<int>{1, 0} << std::vector<int>{0, 1} << 0.0;
        // class 0: I 1, U 2; class 1: I 2, U 3.
        QTest::newRow("partial") << std::vector<int>{0, 1, 1, 1} << std::vector<int>{0, 0, 1, 1} << (0.5 + 2.0 / 3.0) / 2;
        QTest::newRow("unlabelled ignored") << std::vector<int>{0, 1} << std::vector<int>{0, 255} << 1.0;
        // class 2 is absent from the truth but predicted: IoU 0, and it counts in the mean
        // (docs/METRICS.md); class 0 has I 1, U 2.
        QTest::newRow("absent class predicted") << std::vector<int>{0, 2} << std::vector<int>{0, 0} << 0.25;
        QTest::newRow("nothing labelled") << std::vector<int>{0, 1} << std::vector<int>{255, 255} << -1.0;
    }

    void scorePrediction()
    {
        QFETCH(std::vector<int>, predicted);
        QFETCH(std::vector<int>, truth);
        QFETCH(double, iou);
        const auto result = data::scorePrediction(row(predicted), row(truth), 3);
        if (iou < 0) {
            QCOMPARE(result.labelledPixels(), std::int64_t(0));
            QVERIFY(std::isnan(result.meanIoU));
        } else {
            QVERIFY2(std::abs(result.meanIoU - iou) < 1e-12, qPrintable(QString::number(result.meanIoU)));
        }
    }

    void scoringRefusesBadMaps()
    {
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::scorePrediction(row({0, 1}), row({0, 1, 2}), 3));
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::scorePrediction(row({0, 7}), row({0, 1}), 3));  // beyond the classes
    }
};

QTEST_GUILESS_MAIN(TestPredictionIoU)
#include "test_PredictionIoU.moc"
