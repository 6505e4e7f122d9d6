#include "paint/Brush.h"
#include "paint/WriteGuard.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

using segstudio::paint::Brush;
using segstudio::paint::BrushShape;
using segstudio::paint::WriteGuard;

// The brush is checked against OpenCV drawing the same dabs: cv::circle / cv::rectangle stamped at
// every point of cv::LineIterator. Any antialiasing, off-by-one or gap shows up as a byte mismatch.
class TestBrush : public QObject {
    Q_OBJECT

private:
    static void referenceDab(cv::Mat& ref, cv::Point c, int size, BrushShape shape, int value)
    {
        if (shape == BrushShape::Round) {
            cv::circle(ref, c, size / 2, cv::Scalar(value), cv::FILLED, cv::LINE_8);
        } else {
            const cv::Point tl = c - cv::Point(size / 2, size / 2);
            cv::rectangle(ref, tl, tl + cv::Point(size - 1, size - 1), cv::Scalar(value), cv::FILLED);
        }
    }

private slots:
    void strokeMatchesOpenCv_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("round");
        QTest::newRow("round 1") << 1 << true;
        QTest::newRow("round 2") << 2 << true;
        QTest::newRow("round 7") << 7 << true;
        QTest::newRow("round 16") << 16 << true;
        QTest::newRow("square 1") << 1 << false;
        QTest::newRow("square 4") << 4 << false;
        QTest::newRow("square 9") << 9 << false;
    }

    void strokeMatchesOpenCv()
    {
        QFETCH(int, size);
        QFETCH(bool, round);
        const BrushShape shape = round ? BrushShape::Round : BrushShape::Square;
        const Brush brush(size, shape);
        cv::Mat labels(64, 80, CV_8UC1, cv::Scalar(255));
        cv::Mat ref = labels.clone();
        // A path that leaves the image on the left and comes back, with long jumps.
        const std::vector<cv::Point> path{{10, 10}, {70, 13}, {40, 60}, {-5, 40}, {12, 30}};
        brush.stamp(labels, path[0], 3, WriteGuard());
        referenceDab(ref, path[0], size, shape, 3);
        for (std::size_t i = 1; i < path.size(); ++i) {
            brush.stroke(labels, path[i - 1], path[i], 3, WriteGuard());
            cv::LineIterator it(path[i - 1], path[i], 8);
            for (int k = 0; k < it.count; ++k, ++it)
                referenceDab(ref, it.pos(), size, shape, 3);
        }
        QCOMPARE(cv::countNonZero(labels != ref), 0);
        QVERIFY(cv::countNonZero(labels == 3) > 0);
        // No antialiasing: only the two values exist.
        QCOMPARE(cv::countNonZero((labels != 3) & (labels != 255)), 0);
    }

    void returnedRectCoversChanges()
    {
        const Brush brush(9, BrushShape::Round);
        cv::Mat labels(40, 40, CV_8UC1, cv::Scalar(255));
        const cv::Mat before = labels.clone();
        const cv::Rect changed = brush.stroke(labels, {2, 2}, {30, 20}, 1, WriteGuard());
        cv::Mat outside = labels != before;
        outside(changed).setTo(0);
        QCOMPARE(cv::countNonZero(outside), 0);
        QVERIFY(changed.x >= 0 && changed.y >= 0 && changed.br().x <= 40 && changed.br().y <= 40);
    }

    void guardProtectsPixels()
    {
        cv::Mat labels(20, 20, CV_8UC1, cv::Scalar(255));
        labels(cv::Rect(0, 0, 10, 20)).setTo(4);
        WriteGuard onlyUnlabelled;
        onlyUnlabelled.setOnlyUnlabelled(true);
        Brush(20, BrushShape::Square).stamp(labels, {10, 10}, 2, onlyUnlabelled);
        QCOMPARE(cv::countNonZero(labels(cv::Rect(0, 0, 10, 20)) != 4), 0);
        QCOMPARE(cv::countNonZero(labels(cv::Rect(10, 0, 10, 20)) != 2), 0);

        WriteGuard protect2;
        protect2.setProtected(2, true);
        Brush(20, BrushShape::Square).stamp(labels, {10, 10}, 255, protect2);  // eraser
        QCOMPARE(cv::countNonZero(labels(cv::Rect(0, 0, 10, 20)) != 255), 0);
        QCOMPARE(cv::countNonZero(labels(cv::Rect(10, 0, 10, 20)) != 2), 0);
    }
};

QTEST_APPLESS_MAIN(TestBrush)
#include "test_Brush.moc"
