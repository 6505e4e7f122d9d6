#include "paint/PredictionAcceptance.h"

#include <QtTest>

#include <stdexcept>

using namespace segstudio;

namespace {
cv::Mat row(std::initializer_list<int> values)
{
    cv::Mat mat(1, int(values.size()), CV_8UC1);
    int x = 0;
    for (const int v : values)
        mat.at<std::uint8_t>(0, x++) = std::uint8_t(v);
    return mat;
}
std::vector<int> values(const cv::Mat& mat)
{
    std::vector<int> out;
    for (int x = 0; x < mat.cols; ++x)
        out.push_back(mat.at<std::uint8_t>(0, x));
    return out;
}
}  // namespace

// Accept prediction as the user sets it up: unlabelled only or everywhere, a confidence floor,
// and locked classes that keep their pixels.
class TestPredictionAcceptance : public QObject {
    Q_OBJECT

private slots:
    void unlabelledOnly()
    {
        cv::Mat labels = row({255, 1, 255, 2});
        cv::Rect changed;
        const auto count = paint::acceptPrediction(labels, row({0, 0, 3, 3}), {}, {}, paint::WriteGuard(), &changed);
        QCOMPARE(count, std::int64_t(2));
        QCOMPARE(values(labels), (std::vector<int>{0, 1, 3, 2}));
        QCOMPARE(changed, cv::Rect(0, 0, 3, 1));
    }

    void everywhereAboveTheConfidence()
    {
        cv::Mat labels = row({255, 1, 255, 2});
        paint::AcceptOptions options;
        options.unlabelledOnly = false;
        options.minConfidence = 128;
        const auto count = paint::acceptPrediction(labels, row({0, 0, 3, 3}), row({200, 127, 90, 128}), options, paint::WriteGuard());
        QCOMPARE(count, std::int64_t(2));
        QCOMPARE(values(labels), (std::vector<int>{0, 1, 255, 3}));
    }

    void lockedClassesKeepTheirPixels()
    {
        cv::Mat labels = row({1, 2, 255});
        paint::WriteGuard guard;
        guard.setProtected(2, true);
        paint::AcceptOptions options;
        options.unlabelledOnly = false;
        paint::acceptPrediction(labels, row({0, 0, 2}), {}, options, guard);
        QCOMPARE(values(labels), (std::vector<int>{0, 2, 2}));  // 2 kept; writing class 2 elsewhere is fine
        guard.setOnlyUnlabelled(true);
        cv::Mat again = row({1, 255});
        paint::acceptPrediction(again, row({0, 0}), {}, options, guard);  // the editor's own lock wins
        QCOMPARE(values(again), (std::vector<int>{1, 0}));
    }

    void nothingChangedIsAnEmptyRect()
    {
        cv::Mat labels = row({0, 1});
        cv::Rect changed(1, 1, 1, 1);
        QCOMPARE(paint::acceptPrediction(labels, row({0, 1}), {}, {}, paint::WriteGuard(), &changed), std::int64_t(0));
        QVERIFY(changed.empty());
    }

    void mismatchedMapsAreRefused()
    {
        cv::Mat labels = row({0, 1});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, paint::acceptPrediction(labels, row({0}), {}, {}, paint::WriteGuard()));
        paint::AcceptOptions options;
        options.minConfidence = 10;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, paint::acceptPrediction(labels, row({0, 0}), {}, options, paint::WriteGuard()));
    }
};

QTEST_GUILESS_MAIN(TestPredictionAcceptance)
#include "test_PredictionAcceptance.moc"
