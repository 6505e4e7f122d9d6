#include "TestFiles.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "data/project/PredictionIoU.h"
#include "data/project/Project.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include <opencv2/imgcodecs.hpp>

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

    // The queue's and the suspect list's numbers, on constructed maps: uncertainty is the mean
    // entropy over pixels still unlabelled (the whole image when none is); suspect is the labelled share a sure prediction disputes.
    void uncertaintyAndSuspects()
    {
        QTemporaryDir dir;
        const auto schema = test::threeClasses();
        data::Project project(test::path(dir, "p.segstudio"), schema);
        for (const char* name : {"a.png", "b.png", "c.png"}) {
            const auto image = test::path(dir, name);
            cv::imwrite(image.string(), cv::Mat(2, 4, CV_8UC3, cv::Scalar(0, 0, 0)));
            project.addImage(image);
        }
        // a: labelled left half (class 0); b: fully labelled class 1; c: no label map.
        std::filesystem::create_directories(project.labelRoot());
        cv::Mat aLabels(2, 4, CV_8UC1, cv::Scalar(255));
        aLabels.colRange(0, 2).setTo(0);
        data::writeLabelMap(project.labelMapPath(0), aLabels, schema);
        data::writeLabelMap(project.labelMapPath(1), cv::Mat(2, 4, CV_8UC1, cv::Scalar(1)), schema);
        test::writeBytes(test::path(dir, "best.pt"), "weights");
        const data::PredictionCache cache(test::path(dir, "run"), test::path(dir, "best.pt"));
        cache.prepare();
        // Predictions: class 1 everywhere; confidence 250 on the left column, 100 elsewhere; entropy 51 (0.2) on
        // the left half, 204 (0.8) on the right.
        cv::Mat confidence(2, 4, CV_8UC1, cv::Scalar(100)), entropy(2, 4, CV_8UC1, cv::Scalar(204));
        confidence.col(0).setTo(250);
        entropy.colRange(0, 2).setTo(51);
        for (const char* stem : {"a", "b", "c"}) {
            data::writeLabelMap(cache.classesFile(stem), cv::Mat(2, 4, CV_8UC1, cv::Scalar(1)), schema);
            data::writeImageGray(cache.confidenceFile(stem), confidence);
            data::writeImageGray(cache.entropyFile(stem), entropy);
        }
        const auto scores = data::scorePredictions(project, cache, {0, 1, 2});
        QVERIFY(std::abs(*scores[0].uncertainty - 0.8) < 1e-9);  // a: its unlabelled right half
        QVERIFY(std::abs(*scores[1].uncertainty - 0.5) < 1e-9);  // b: all labelled, so the whole image (issue 27.17)
        QVERIFY(std::abs(*scores[2].uncertainty - 0.5) < 1e-9);  // c: the whole image
        QCOMPARE(*scores[0].suspectFraction, 0.5);  // of a's 4 labelled pixels, the 2 in the sure column disagree
        QCOMPARE(*scores[1].suspectFraction, 0.0);  // b: the model agrees
        QVERIFY(!scores[2].suspectFraction && !scores[2].iou && scores[2].problem.empty());
        data::ScoringOptions lenient;
        lenient.suspectConfidence = 90;
        QCOMPARE(*data::scorePredictions(project, cache, {0}, lenient)[0].suspectFraction, 1.0);
    }

    void scoringRefusesBadMaps()
    {
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::scorePrediction(row({0, 1}), row({0, 1, 2}), 3));
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::scorePrediction(row({0, 7}), row({0, 1}), 3));  // beyond the classes
    }

    // Issue 47.13: the Predictions panel printed the mean of per-image IoUs (0.671) where the run
    // and the report said the data set's (0.691). One "mean IoU": the summed counts'.
    void theDataSetsMeanIoUSumsTheCounts()
    {
        data::PredictionScore a, b;
        a.index = 0;
        b.index = 1;
        a.confusion.emplace(2);
        a.confusion->addCount(0, 0, 90);
        a.confusion->addCount(1, 1, 10);  // every pixel right: the image's mean IoU is 1
        b.confusion.emplace(2);
        b.confusion->addCount(1, 0, 10);  // every pixel wrong: 0
        const auto all = data::datasetMetrics({a, b}, [](std::size_t) { return true; });
        QVERIFY(all);
        QVERIFY2(std::abs(all->meanIoU - 0.7) < 1e-12, qPrintable(QString::number(all->meanIoU)));  // (90/100 + 10/20) / 2
        const auto first = data::datasetMetrics({a, b}, [](std::size_t index) { return index == 0; });
        QCOMPARE(first->meanIoU, 1.0);
        QVERIFY(!data::datasetMetrics({a, b}, [](std::size_t) { return false; }));
    }
};

QTEST_GUILESS_MAIN(TestPredictionIoU)
#include "test_PredictionIoU.moc"
