#include "SmartClickScene.h"

#include "SimulatedAnnotator.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

#include <cmath>

using segstudio::bench::SimulatedAnnotator;

// The simulated annotator's policy (docs/LABELING.md) pinned on scenes whose answer is known by
// hand: where it clicks, in what order, and how many actions a whole image costs.
class TestSimulatedAnnotator : public QObject {
    Q_OBJECT

private slots:
    void clicksTheCentreOfARegion()
    {
        cv::Mat mask(60, 80, CV_8UC1, cv::Scalar(0));
        mask(cv::Rect(10, 20, 21, 21)).setTo(255);
        QCOMPARE(SimulatedAnnotator::farthestInterior(mask), cv::Point(20, 30));
        // The image's edge is a border too: a region filling the image is clicked in its middle.
        const cv::Mat whole(31, 31, CV_8UC1, cv::Scalar(255));
        QCOMPARE(SimulatedAnnotator::farthestInterior(whole), cv::Point(15, 15));
    }

    void largestErrorRegionFirstWithItsTrueClass()
    {
        const SmartClickScene scene;
        const auto first = SimulatedAnnotator::nextTarget(scene.predicted, scene.truth);
        QVERIFY(first);
        QCOMPARE(first->truthClass, SmartClickScene::kPavement);
        QCOMPARE(first->currentLabel, SmartClickScene::kRoad);
        QCOMPARE(first->bounds, SmartClickScene::kPavementRect);
        QCOMPARE(first->area, std::int64_t(SmartClickScene::kPavementRect.area()));
        QVERIFY(!SimulatedAnnotator::nextTarget(scene.truth, scene.truth));
        // Void pixels never count as errors.
        cv::Mat truth = scene.truth.clone();
        truth(SmartClickScene::kPavementRect).setTo(SimulatedAnnotator::kVoid);
        QCOMPARE(SimulatedAnnotator::nextTarget(scene.predicted, truth)->truthClass, SmartClickScene::kCar);
    }

    void polygonsTraceBackgroundThenEachRectangle()
    {
        // From an empty map: the road's outline is the image's (4 vertices), then the two patches
        // (4 each), largest first: 12 actions, and the accuracy after each step is known.
        const SmartClickScene scene;
        SimulatedAnnotator::Options options;
        options.target = 1.0;
        const auto trace = SimulatedAnnotator(SimulatedAnnotator::Mode::Polygon, options).label({scene.rgb, scene.truth, {}, {}, {}});
        QCOMPARE(trace.startAccuracy, 0.0);
        QCOMPARE(int(trace.steps.size()), 3);
        const double total = scene.truth.total();
        QCOMPARE(trace.steps[0].actions, 4);
        QCOMPARE(trace.steps[0].accuracy, (total - SmartClickScene::kPavementRect.area() - SmartClickScene::kCarRect.area()) / total);
        QCOMPARE(trace.steps[1].actions, 8);
        QCOMPARE(trace.steps[1].accuracy, (total - SmartClickScene::kCarRect.area()) / total);
        QCOMPARE(trace.steps[2].actions, 12);
        QCOMPARE(trace.steps[2].accuracy, 1.0);
        QCOMPARE(trace.actionsTo(0.95), 8);
    }

    void smartClicksFixEachPatchWithOneClick()
    {
        // Accept the prediction (all road: one action), then one smart click per patch.
        const SmartClickScene scene;
        SimulatedAnnotator::Options options;
        options.target = 1.0;
        const auto trace = SimulatedAnnotator(SimulatedAnnotator::Mode::Smart, options)
                               .label({scene.rgb, scene.truth, scene.predicted, scene.scores, {}});
        QCOMPARE(trace.startActions, 1);
        QCOMPARE(int(trace.steps.size()), 2);
        QCOMPARE(trace.steps[1].actions, 3);
        QCOMPARE(trace.steps[1].accuracy, 1.0);
        QCOMPARE(cv::countNonZero(trace.finalLabels != scene.truth), 0);
    }

    void aToolThatFixesNothingGivesWayToThePolygon()
    {
        // The prediction mode's superpixels on a flat image: 24-pixel superpixels cut across the
        // patches, so each click fixes part of a region; the trace must still end exact, and
        // every step must change the accuracy (no click repeated in vain).
        const SmartClickScene scene;
        SimulatedAnnotator::Options options;
        options.target = 1.0;
        const auto trace = SimulatedAnnotator(SimulatedAnnotator::Mode::Prediction, options)
                               .label({scene.rgb, scene.truth, scene.predicted, {}, {}});
        QVERIFY(!trace.steps.empty());
        QCOMPARE(trace.steps.back().accuracy, 1.0);
        double last = trace.startAccuracy;
        for (const auto& step : trace.steps) {
            QVERIFY(step.accuracy > last);
            last = step.accuracy;
        }
    }

    // A click whose region spills onto right pixels: the model is unsure over the whole pavement
    // rectangle, but only its left half is pavement (the right half is road of another colour).
    // The fixed policy undoes the click and traces the half (4 vertices, counted as traced); the
    // variant's person takes the spill back with a Shift+click, and the two keep what they fixed.
    void aClickThatSpillsIsTracedOrTakenBack()
    {
        SmartClickScene scene;
        const cv::Rect left(SmartClickScene::kPavementRect.x, SmartClickScene::kPavementRect.y,
                            SmartClickScene::kPavementRect.width / 2, SmartClickScene::kPavementRect.height);
        const cv::Rect rightHalf(left.x + left.width, left.y, SmartClickScene::kPavementRect.width - left.width, left.height);
        scene.truth(rightHalf).setTo(SmartClickScene::kRoad);
        scene.rgb(rightHalf).setTo(cv::Scalar(110, 110, 100));
        SimulatedAnnotator::Options options;
        options.target = 1.0;
        const SimulatedAnnotator::Image image{scene.rgb, scene.truth, scene.predicted, scene.scores, {}};

        const auto fixed = SimulatedAnnotator(SimulatedAnnotator::Mode::Smart, options).label(image);
        QVERIFY(!fixed.steps.empty());
        QCOMPARE(fixed.steps[0].targetClass, SmartClickScene::kPavement);
        QCOMPARE(fixed.steps[0].traced, 4);  // the left half's rectangle
        QCOMPARE(fixed.steps[0].actions, 1 + 1 + 4);  // accept, the click, the polygon
        QCOMPARE(fixed.steps[0].accuracy, 1.0 - double(SmartClickScene::kCarRect.area()) / double(scene.truth.total()));

        options.negativeAfterSpill = true;
        const auto takenBack = SimulatedAnnotator(SimulatedAnnotator::Mode::Smart, options).label(image);
        QVERIFY(!takenBack.steps.empty());
        QCOMPARE(takenBack.steps[0].traced, 0);
        QCOMPARE(takenBack.steps[0].actions, 1 + 2);  // accept, the click and its Shift+click
        QVERIFY(takenBack.steps[0].accuracy > takenBack.startAccuracy);
        QCOMPARE(cv::countNonZero(takenBack.finalLabels(left) != SmartClickScene::kPavement), 0);
        QCOMPARE(cv::countNonZero(takenBack.finalLabels(rightHalf) != SmartClickScene::kRoad), 0);
    }

    void objectClicksCountUntilTheIoU()
    {
        const SmartClickScene scene;
        const segstudio::paint::SmartClickSegmenter smart(scene.scores, scene.rgb);
        cv::Mat object(scene.truth.size(), CV_8UC1, cv::Scalar(0));
        object(SmartClickScene::kCarRect).setTo(255);
        const SimulatedAnnotator::Image image{scene.rgb, scene.truth, scene.predicted, scene.scores, {}};
        QCOMPARE(SimulatedAnnotator::clicksToIoU(SimulatedAnnotator::Mode::Smart, image, object, SmartClickScene::kCar, 0.9, 20, &smart), 1);
    }

    // A car the model has never heard of (sure road, road's colour) where the scene has none: the
    // first click's region misses it, and its outline is a rectangle, so the person undoes the
    // click and outlines it: the click and four vertices. Without the rule, or with one that only
    // takes outlines of three vertices, the clicks get there pixel patch by patch, at a higher cost.
    void aSimpleShapeTheClickMissedIsOutlined()
    {
        const SmartClickScene scene;
        const segstudio::paint::SmartClickSegmenter smart(scene.scores, scene.rgb);
        cv::Mat object(scene.truth.size(), CV_8UC1, cv::Scalar(0));
        object(cv::Rect(40, 100, 24, 16)).setTo(255);
        const SimulatedAnnotator::Image image{scene.rgb, scene.truth, scene.predicted, scene.scores, {}};
        SimulatedAnnotator::Options options;
        options.polygonBelowFirstIoU = 0.85;
        options.polygonAtMostVertices = 15;
        QCOMPARE(SimulatedAnnotator::clicksToIoU(SimulatedAnnotator::Mode::Smart, image, object, SmartClickScene::kCar, 0.9, 20, &smart, options), 1 + 4);
        options.polygonAtMostVertices = 3;
        const int clicksOnly = SimulatedAnnotator::clicksToIoU(SimulatedAnnotator::Mode::Smart, image, object, SmartClickScene::kCar, 0.9, 20, &smart, options);
        QVERIFY(clicksOnly > 1 + 4);
        options.polygonBelowFirstIoU = 0.0;
        options.polygonAtMostVertices = 15;
        QCOMPARE(SimulatedAnnotator::clicksToIoU(SimulatedAnnotator::Mode::Smart, image, object, SmartClickScene::kCar, 0.9, 20, &smart, options), clicksOnly);
    }

    // What 90 % asks of a pixel: a 10x10 square moved a pixel out all round is 100 of 140 pixels
    // (in: 64 of 100), so 90 % needs its outline to within less than a pixel; a 40x40 one keeps
    // 1600 of 1760 (0.909).
    void aSmallObjectCannotSpareAPixelOfItsOutline()
    {
        cv::Mat small(60, 60, CV_8UC1, cv::Scalar(0)), large(60, 60, CV_8UC1, cv::Scalar(0));
        small(cv::Rect(20, 20, 10, 10)).setTo(255);
        large(cv::Rect(10, 10, 40, 40)).setTo(255);
        QVERIFY(std::abs(SimulatedAnnotator::onePixelIoU(small) - 100.0 / 140.0) < 1e-9);
        QVERIFY(std::abs(SimulatedAnnotator::onePixelIoU(large) - 1600.0 / 1760.0) < 1e-9);
    }

    // The boundary offset: nothing for the object itself, about a pixel for the object grown by one
    // all round (40 pixels more over its 36 outline pixels), and the image's edge is no outline.
    void theBoundaryOffsetCountsPixelsOfOutline()
    {
        cv::Mat object(60, 60, CV_8UC1, cv::Scalar(0));
        object(cv::Rect(20, 20, 10, 10)).setTo(255);
        QCOMPARE(SimulatedAnnotator::meanBoundaryOffset(object, object), 0.0);
        cv::Mat grown;
        cv::dilate(object, grown, cv::getStructuringElement(cv::MORPH_CROSS, {3, 3}));
        QVERIFY(std::abs(SimulatedAnnotator::meanBoundaryOffset(grown, object) - 40.0 / 36.0) < 1e-9);
        cv::Mat atTheEdge(60, 60, CV_8UC1, cv::Scalar(0));
        atTheEdge(cv::Rect(0, 0, 10, 10)).setTo(255);  // two sides on the image's edge: 19 outline pixels
        cv::Mat shifted(60, 60, CV_8UC1, cv::Scalar(0));
        shifted(cv::Rect(0, 0, 11, 10)).setTo(255);
        QVERIFY(std::abs(SimulatedAnnotator::meanBoundaryOffset(shifted, atTheEdge) - 10.0 / 19.0) < 1e-9);
    }
};

QTEST_APPLESS_MAIN(TestSimulatedAnnotator)
#include "test_SimulatedAnnotator.moc"
