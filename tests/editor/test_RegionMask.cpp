#include "paint/RegionMask.h"
#include "paint/WriteGuard.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

using segstudio::paint::RegionMask;
using segstudio::paint::WriteGuard;

// Polygon, flood and magic-wand regions on small constructed images whose answer is known.
class TestRegionMask : public QObject {
    Q_OBJECT

private slots:
    void polygonEqualsFillPoly_data()
    {
        QTest::addColumn<std::vector<cv::Point>>("points");
        QTest::newRow("triangle") << std::vector<cv::Point>{{5, 5}, {50, 12}, {20, 55}};
        QTest::newRow("concave") << std::vector<cv::Point>{{2, 2}, {60, 2}, {30, 30}, {60, 60}, {2, 60}};
        QTest::newRow("self-crossing") << std::vector<cv::Point>{{0, 0}, {63, 63}, {63, 0}, {0, 63}};
        QTest::newRow("partly outside") << std::vector<cv::Point>{{-20, 10}, {40, -5}, {90, 70}, {10, 50}};
    }

    void polygonEqualsFillPoly()
    {
        QFETCH(std::vector<cv::Point>, points);
        cv::Mat labels(64, 64, CV_8UC1, cv::Scalar(255));
        RegionMask::polygon(labels.size(), points).paint(labels, 7, WriteGuard());
        cv::Mat ref(64, 64, CV_8UC1, cv::Scalar(255));
        cv::fillPoly(ref, std::vector<std::vector<cv::Point>>{points}, cv::Scalar(7), cv::LINE_8);
        QCOMPARE(cv::countNonZero(labels != ref), 0);
        QVERIFY(cv::countNonZero(ref == 7) > 0);
    }

    void floodFillsOnlyConnectedSameLabel()
    {
        // Two separate squares of class 1 and a diagonal-only neighbour of class 1.
        cv::Mat labels(32, 32, CV_8UC1, cv::Scalar(255));
        labels(cv::Rect(2, 2, 10, 10)).setTo(1);
        labels(cv::Rect(20, 20, 8, 8)).setTo(1);
        labels.at<std::uint8_t>(12, 12) = 1;  // touches (11,11) only diagonally
        const RegionMask region = RegionMask::floodLabel(labels, {5, 5}, 4);
        QCOMPARE(region.area(), std::int64_t(100));
        QCOMPARE(region.bounds, cv::Rect(2, 2, 10, 10));
        QCOMPARE(RegionMask::floodLabel(labels, {5, 5}, 8).area(), std::int64_t(101));
        region.paint(labels, 4, WriteGuard());
        QCOMPARE(cv::countNonZero(labels == 4), 100);
        QCOMPARE(cv::countNonZero(labels == 1), 65);
        // The unlabelled background is one region too.
        QCOMPARE(RegionMask::floodLabel(labels, {0, 31}, 4).area(), std::int64_t(32 * 32 - 100 - 64 - 1));
        QVERIFY(RegionMask::floodLabel(labels, {40, 0}, 4).empty());
    }

    void magicWandRespectsTolerance()
    {
        // A horizontal ramp: red grows by 4 per column. From column 10 (red 40), tolerance 8
        // reaches columns 8..12; tolerance 0 only column 10. A wall of different green stops it.
        cv::Mat rgb(16, 32, CV_8UC3);
        for (int y = 0; y < rgb.rows; ++y)
            for (int x = 0; x < rgb.cols; ++x)
                rgb.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(4 * x), 100, 50);
        QCOMPARE(RegionMask::magicWand(rgb, {10, 5}, 8).bounds, cv::Rect(8, 0, 5, 16));
        QCOMPARE(RegionMask::magicWand(rgb, {10, 5}, 0).area(), std::int64_t(16));
        rgb(cv::Rect(0, 8, 32, 1)).setTo(cv::Scalar(40, 200, 50));
        const RegionMask half = RegionMask::magicWand(rgb, {10, 2}, 8);
        QCOMPARE(half.bounds, cv::Rect(8, 0, 5, 8));
        QCOMPARE(half.area(), std::int64_t(40));
    }

    void ofValueAndGuard()
    {
        cv::Mat labels(10, 10, CV_8UC1, cv::Scalar(3));
        labels(cv::Rect(4, 4, 3, 2)).setTo(255);
        const RegionMask unlabelled = RegionMask::ofValue(labels, 255);
        QCOMPARE(unlabelled.bounds, cv::Rect(4, 4, 3, 2));
        QCOMPARE(unlabelled.paint(labels, 5, WriteGuard()), std::int64_t(6));
        QCOMPARE(cv::countNonZero(labels == 5), 6);

        WriteGuard guard;
        guard.setProtected(3, true);
        QCOMPARE(RegionMask::polygon(labels.size(), {{0, 0}, {9, 0}, {9, 9}, {0, 9}}).paint(labels, 1, guard),
                 std::int64_t(6));
        QCOMPARE(cv::countNonZero(labels == 3), 94);
    }
};

QTEST_APPLESS_MAIN(TestRegionMask)
#include "test_RegionMask.moc"
