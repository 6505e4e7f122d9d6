#include "paint/GrabCutSegmenter.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

using segstudio::paint::GrabCutSegmenter;
using segstudio::paint::RegionMask;

// GrabCut seeded by strokes and by a rectangle on a synthetic scene whose object is known exactly:
// a textured red disc on a textured grey-blue background. The result is judged by its overlap
// with the true disc (intersection over union), not by exact bytes, since GrabCut's boundary
// depends on its colour models.
class TestGrabCutSegmenter : public QObject {
    Q_OBJECT

private:
    static constexpr int kWidth = 240, kHeight = 180;
    static inline const cv::Point kCentre{130, 90};
    static constexpr int kRadius = 45;

    static cv::Mat scene(cv::Size size = {kWidth, kHeight}, double scale = 1.0)
    {
        cv::Mat rgb(size, CV_8UC3);
        cv::RNG rng(42);
        rng.fill(rgb, cv::RNG::UNIFORM, cv::Scalar(60, 90, 120), cv::Scalar(100, 130, 170));
        cv::Mat object(size, CV_8UC3);
        rng.fill(object, cv::RNG::UNIFORM, cv::Scalar(180, 20, 20), cv::Scalar(230, 60, 50));
        object.copyTo(rgb, truth(size, scale));
        return rgb;
    }

    static cv::Mat truth(cv::Size size = {kWidth, kHeight}, double scale = 1.0)
    {
        cv::Mat mask = cv::Mat::zeros(size, CV_8UC1);
        cv::circle(mask, kCentre * scale, int(kRadius * scale), cv::Scalar(255), cv::FILLED);
        return mask;
    }

    static double iou(const RegionMask& region, const cv::Mat& truthMask)
    {
        cv::Mat found = cv::Mat::zeros(truthMask.size(), CV_8UC1);
        if (!region.empty())
            found(region.bounds).setTo(255, region.mask);
        const double both = cv::countNonZero(found & truthMask);
        const double either = cv::countNonZero(found | truthMask);
        return either == 0 ? 0.0 : both / either;
    }

private slots:
    void fewStrokesFindTheObject_data()
    {
        QTest::addColumn<bool>("withBackgroundStroke");
        QTest::newRow("object stroke + background stroke") << true;
        QTest::newRow("object stroke only") << false;
    }

    void fewStrokesFindTheObject()
    {
        QFETCH(bool, withBackgroundStroke);
        const cv::Mat rgb = scene();
        cv::Mat foreground = cv::Mat::zeros(rgb.size(), CV_8UC1);
        cv::Mat background = cv::Mat::zeros(rgb.size(), CV_8UC1);
        cv::line(foreground, kCentre - cv::Point(25, 10), kCentre + cv::Point(25, 10), cv::Scalar(255), 5);
        cv::line(foreground, kCentre - cv::Point(0, 25), kCentre + cv::Point(0, 25), cv::Scalar(255), 5);
        if (withBackgroundStroke)
            cv::line(background, {20, 20}, {20, 160}, cv::Scalar(255), 5);
        const RegionMask region = GrabCutSegmenter::fromStrokes(rgb, foreground, background);
        QVERIFY(!region.empty());
        const double overlap = iou(region, truth());
        QVERIFY2(overlap > 0.9, qPrintable(QString::number(overlap)));
        // Every stroked object pixel is in, every stroked background pixel out.
        cv::Mat found = cv::Mat::zeros(rgb.size(), CV_8UC1);
        found(region.bounds).setTo(255, region.mask);
        QCOMPARE(cv::countNonZero(foreground & ~found), 0);
        QCOMPARE(cv::countNonZero(background & found), 0);
    }

    void largeImageIsWorkedOnScaledDown()
    {
        // 4x the scene, with a work budget that forces a reduced scale; the result comes back at
        // full resolution, inside the image.
        const double scale = 4.0;
        const cv::Size size(kWidth * 4, kHeight * 4);
        const cv::Mat rgb = scene(size, scale);
        cv::Mat foreground = cv::Mat::zeros(size, CV_8UC1);
        // A cross scribbled well inside the disc (radius 180): the object reaches far beyond it.
        cv::line(foreground, kCentre * scale - cv::Point(90, 0), kCentre * scale + cv::Point(90, 0), cv::Scalar(255), 9);
        cv::line(foreground, kCentre * scale - cv::Point(0, 90), kCentre * scale + cv::Point(0, 90), cv::Scalar(255), 9);
        const cv::Mat background = cv::Mat::zeros(size, CV_8UC1);
        const RegionMask region = GrabCutSegmenter::fromStrokes(rgb, foreground, background, 3, 20'000);
        QVERIFY(!region.empty());
        QVERIFY((region.bounds & cv::Rect({0, 0}, size)) == region.bounds);
        QCOMPARE(region.mask.size(), region.bounds.size());
        const double overlap = iou(region, truth(size, scale));
        QVERIFY2(overlap > 0.85, qPrintable(QString::number(overlap)));
    }

    void rectangleFindsTheObject()
    {
        const cv::Mat rgb = scene();
        const cv::Rect around(kCentre.x - kRadius - 8, kCentre.y - kRadius - 8, 2 * kRadius + 16, 2 * kRadius + 16);
        const RegionMask region = GrabCutSegmenter::fromRect(rgb, around);
        const double overlap = iou(region, truth());
        QVERIFY2(overlap > 0.9, qPrintable(QString::number(overlap)));
    }

    void degenerateSeedsGiveNothing()
    {
        const cv::Mat rgb = scene();
        const cv::Mat none = cv::Mat::zeros(rgb.size(), CV_8UC1);
        QVERIFY(GrabCutSegmenter::fromStrokes(rgb, none, none).empty());  // no object stroke
        QVERIFY(GrabCutSegmenter::fromRect(rgb, cv::Rect(5, 5, 1, 40)).empty());
        QVERIFY(GrabCutSegmenter::fromRect(rgb, cv::Rect(-50, -50, 20, 20)).empty());  // outside
    }
};

QTEST_APPLESS_MAIN(TestGrabCutSegmenter)
#include "test_GrabCutSegmenter.moc"
