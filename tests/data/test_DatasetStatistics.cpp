#include "TestFiles.h"
#include "data/project/DatasetStatistics.h"

#include <QtTest>
#include <algorithm>

using namespace segstudio;

class TestDatasetStatistics : public QObject {
    Q_OBJECT

private slots:
    void countsPixelsAndImages()
    {
        data::DatasetStatistics statistics;
        cv::Mat a(2, 5, CV_8UC1, cv::Scalar(0));  // 10 px: 7 of class 0, 3 of class 1
        a.at<std::uint8_t>(0, 0) = a.at<std::uint8_t>(0, 1) = a.at<std::uint8_t>(1, 4) = 1;
        cv::Mat b(2, 2, CV_8UC1, cv::Scalar(2));  // 4 px: 3 of class 2, one unlabelled
        b.at<std::uint8_t>(1, 1) = 255;
        statistics.addLabelMap(a);
        statistics.addLabelMap(b);
        QCOMPARE(statistics.classPixels(0), 7ULL);
        QCOMPARE(statistics.classPixels(1), 3ULL);
        QCOMPARE(statistics.classPixels(2), 3ULL);
        QCOMPARE(statistics.unlabelledPixels(), 1ULL);
        QCOMPARE(statistics.imagePixels(1), 10ULL);
        QCOMPARE(statistics.imagePixels(2), 4ULL);
        QCOMPARE(statistics.imagesContaining(0), 1ULL);
        QCOMPARE(statistics.labelMapCount(), 2ULL);
    }

    // An independent computation: straight from the definition, over random label maps.
    void medianFrequencyMatchesTheDefinition()
    {
        cv::RNG rng(7);
        data::DatasetStatistics statistics;
        std::vector<cv::Mat> maps;
        for (int n = 0; n < 6; ++n) {
            cv::Mat labels(20 + n, 30, CV_8UC1);
            rng.fill(labels, cv::RNG::UNIFORM, 0, 3 + n % 3);  // later maps contain more classes
            maps.push_back(labels);
            statistics.addLabelMap(labels);
        }
        const int classes = 5;
        std::vector<double> frequency;
        for (int c = 0; c < classes; ++c) {
            double pixels = 0, imagePixels = 0;
            for (const cv::Mat& labels : maps) {
                const int count = cv::countNonZero(labels == c);
                pixels += count;
                imagePixels += count > 0 ? double(labels.total()) : 0.0;
            }
            frequency.push_back(pixels / imagePixels);
        }
        std::vector<double> sorted = frequency;
        std::sort(sorted.begin(), sorted.end());
        const double median = sorted[classes / 2];
        const std::vector<double> weights = statistics.medianFrequencyWeights(classes - 1);
        QCOMPARE(weights.size(), std::size_t(classes));
        for (int c = 0; c < classes; ++c)
            QVERIFY2(std::abs(weights[c] - median / frequency[c]) < 1e-12, qPrintable(QString::number(c)));
    }

    void absentClassesGetZeroWeight()
    {
        data::DatasetStatistics statistics;
        statistics.addLabelMap(cv::Mat(3, 3, CV_8UC1, cv::Scalar(1)));
        const std::vector<double> median = statistics.medianFrequencyWeights(2);
        const std::vector<double> inverse = statistics.inverseFrequencyWeights(2);
        QCOMPARE(median, (std::vector<double>{0.0, 1.0, 0.0}));
        QCOMPARE(inverse, (std::vector<double>{0.0, 1.0, 0.0}));
    }

    void inverseFrequency()
    {
        data::DatasetStatistics statistics;
        cv::Mat labels(1, 4, CV_8UC1, cv::Scalar(0));
        labels.at<std::uint8_t>(0, 3) = 1;  // 3 px of 0, 1 px of 1: weights 4/(2*3), 4/(2*1)
        statistics.addLabelMap(labels);
        const std::vector<double> weights = statistics.inverseFrequencyWeights(1);
        QVERIFY(std::abs(weights[0] - 4.0 / 6.0) < 1e-12);
        QVERIFY(std::abs(weights[1] - 2.0) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestDatasetStatistics)
#include "test_DatasetStatistics.moc"
