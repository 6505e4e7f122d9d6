#include "paint/Brush.h"
#include "paint/WriteGuard.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

#include <cmath>

using segstudio::paint::Brush;
using segstudio::paint::BrushShape;
using segstudio::paint::WriteGuard;

// The brush is checked against an independent reference written from the geometry, in floating
// point over image coordinates: a size-n dab is the n×n box with top-left c - (n / 2, n / 2); a
// round dab keeps the pixels whose centres lie within n / 2 of the box centre. Every mouse step
// stamps one dab (cv::LineIterator). Any antialiasing, off-by-one or gap is a byte mismatch.
class TestBrush : public QObject {
    Q_OBJECT

private:
    static bool referenceCovers(cv::Point pixel, cv::Point c, int size, BrushShape shape)
    {
        const cv::Point2d boxCentre(c.x - size / 2 + (size - 1) / 2.0, c.y - size / 2 + (size - 1) / 2.0);
        const double dx = pixel.x - boxCentre.x, dy = pixel.y - boxCentre.y;
        if (std::abs(dx) > (size - 1) / 2.0 + 1e-9 || std::abs(dy) > (size - 1) / 2.0 + 1e-9)
            return false;
        return shape == BrushShape::Square || std::hypot(dx, dy) <= size / 2.0 + 1e-9;
    }

    static void referenceDab(cv::Mat& ref, cv::Point c, int size, BrushShape shape, int value)
    {
        for (int y = 0; y < ref.rows; ++y)
            for (int x = 0; x < ref.cols; ++x)
                if (referenceCovers({x, y}, c, size, shape))
                    ref.at<std::uint8_t>(y, x) = static_cast<std::uint8_t>(value);
    }

    static void addSizes()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("round");
        for (int size : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 31, 32}) {
            QTest::addRow("round %d", size) << size << true;
            QTest::addRow("square %d", size) << size << false;
        }
    }

private slots:
    void dabIsExactlySizeAcross_data() { addSizes(); }

    void dabIsExactlySizeAcross()
    {
        QFETCH(int, size);
        QFETCH(bool, round);
        const BrushShape shape = round ? BrushShape::Round : BrushShape::Square;
        cv::Mat labels(80, 80, CV_8UC1, cv::Scalar(255));
        const cv::Point c(40, 40);
        Brush(size, shape).stamp(labels, c, 1, WriteGuard());
        cv::Mat ref(80, 80, CV_8UC1, cv::Scalar(255));
        referenceDab(ref, c, size, shape, 1);
        QCOMPARE(cv::countNonZero(labels != ref), 0);
        // n pixels across, on the middle row and column, and an n×n bounding box.
        const cv::Mat painted = labels == 1;
        QCOMPARE(cv::boundingRect(painted), cv::Rect(c - cv::Point(size / 2, size / 2), cv::Size(size, size)));
        QCOMPARE(cv::countNonZero(painted.row(c.y)), size);
        QCOMPARE(cv::countNonZero(painted.col(c.x)), size);
        QCOMPARE(Brush(size, shape).dabRect(c).size(), cv::Size(size, size));
        // Each size paints differently from the next: an even size no longer equals size + 1.
        cv::Mat bigger(80, 80, CV_8UC1, cv::Scalar(255));
        Brush(size + 1, shape).stamp(bigger, c, 1, WriteGuard());
        QVERIFY(cv::countNonZero(bigger == 1) > cv::countNonZero(painted));
    }

    void smallRoundTipsAreAsDrawn_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<QString>("rows");
        QTest::newRow("2") << 2 << QStringLiteral("##|##");
        QTest::newRow("3") << 3 << QStringLiteral("###|###|###");
        QTest::newRow("4") << 4 << QStringLiteral(".##.|####|####|.##.");
        QTest::newRow("5") << 5 << QStringLiteral(".###.|#####|#####|#####|.###.");
        QTest::newRow("6") << 6 << QStringLiteral(".####.|######|######|######|######|.####.");
    }

    void smallRoundTipsAreAsDrawn()
    {
        QFETCH(int, size);
        QFETCH(QString, rows);
        const cv::Mat tip = Brush(size, BrushShape::Round).tip();
        QStringList drawn;
        for (int y = 0; y < tip.rows; ++y) {
            QString row;
            for (int x = 0; x < tip.cols; ++x)
                row += tip.at<std::uint8_t>(y, x) ? QLatin1Char('#') : QLatin1Char('.');
            drawn << row;
        }
        QCOMPARE(drawn.join(QLatin1Char('|')), rows);
    }

    void strokeMatchesReference_data() { addSizes(); }

    void strokeMatchesReference()
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
