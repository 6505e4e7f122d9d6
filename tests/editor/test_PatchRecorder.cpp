#include "paint/Brush.h"
#include "paint/PatchRecorder.h"
#include "paint/RegionMask.h"
#include "paint/WriteGuard.h"

#include <QtTest>

using namespace segstudio::paint;

// Tiled undo patches: exact restoration of mixed edits, and memory that follows the touched tiles.
class TestPatchRecorder : public QObject {
    Q_OBJECT

private slots:
    void runLengthRoundTrip()
    {
        cv::Mat tile(64, 64, CV_8UC1);
        cv::randu(tile, 0, 4);
        tile(cv::Rect(0, 0, 64, 40)).setTo(9);  // long runs across rows and past 256
        const auto runs = LabelPatch::encode(tile);
        cv::Mat decoded(64, 64, CV_8UC1, cv::Scalar(0));
        LabelPatch::decode(runs, decoded);
        QCOMPARE(cv::countNonZero(decoded != tile), 0);
    }

    void undoRedoRestoresExactBytes()
    {
        cv::Mat labels(150, 200, CV_8UC1);
        cv::randu(labels, 0, 6);
        const cv::Mat original = labels.clone();
        std::vector<LabelPatch> patches;
        std::vector<cv::Mat> states{original.clone()};
        PatchRecorder recorder;

        recorder.begin(labels);
        const Brush brush(11, BrushShape::Round);
        recorder.touch(labels, brush.strokeRect({5, 5}, {190, 140}));
        brush.stroke(labels, {5, 5}, {190, 140}, 2, WriteGuard());
        patches.push_back(recorder.finish(labels));
        states.push_back(labels.clone());

        recorder.begin(labels);
        const RegionMask poly = RegionMask::polygon(labels.size(), {{100, 0}, {199, 0}, {150, 149}});
        recorder.touch(labels, poly.bounds);
        poly.paint(labels, 255, WriteGuard());
        patches.push_back(recorder.finish(labels));
        states.push_back(labels.clone());

        for (int i = 1; i >= 0; --i) {
            patches[static_cast<std::size_t>(i)].applyBefore(labels);
            QCOMPARE(cv::countNonZero(labels != states[static_cast<std::size_t>(i)]), 0);
        }
        for (std::size_t i = 0; i < patches.size(); ++i) {
            patches[i].applyAfter(labels);
            QCOMPARE(cv::countNonZero(labels != states[i + 1]), 0);
        }
    }

    void keepsOnlyChangedTiles()
    {
        cv::Mat labels(256, 256, CV_8UC1, cv::Scalar(255));
        PatchRecorder recorder(64);
        recorder.begin(labels);
        recorder.touch(labels, cv::Rect(0, 0, 256, 256));  // announced everything...
        labels.at<std::uint8_t>(70, 130) = 1;              // ...changed one tile
        const LabelPatch patch = recorder.finish(labels);
        QCOMPARE(patch.tileCount(), std::size_t(1));
        QCOMPARE(patch.bounds(), cv::Rect(128, 64, 64, 64));
        QVERIFY(patch.memoryBytes() < 1024);
    }

    void restoreCancels()
    {
        cv::Mat labels(50, 70, CV_8UC1, cv::Scalar(1));
        const cv::Mat before = labels.clone();
        PatchRecorder recorder(16);
        recorder.begin(labels);
        recorder.touch(labels, cv::Rect(10, 10, 40, 30));
        labels(cv::Rect(10, 10, 40, 30)).setTo(2);
        recorder.restore(labels);
        QCOMPARE(cv::countNonZero(labels != before), 0);
        QVERIFY(!recorder.active());
    }
};

QTEST_APPLESS_MAIN(TestPatchRecorder)
#include "test_PatchRecorder.moc"
