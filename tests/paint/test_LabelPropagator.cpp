#include "paint/LabelPropagator.h"
#include "StreetScene.h"

#include "data/labels/LabelClass.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

#include <cstdint>
#include <stdexcept>

using namespace segstudio;

namespace {

constexpr std::uint8_t kUnlabelled = data::kUnlabelled;
const cv::Size kFrame(320, 240);

using painttest::Scene;
using painttest::makeScene;
using painttest::nearlyRight;


struct Check {
    int wrong = 0;  // carried labels not within one pixel of the truth
    int invented = 0;  // labels where the source has nothing to give (farther than 1.5 px outside it)
    int missed = 0;  // pixels well inside that were not carried
    int inside = 0;  // pixels well inside
};

// `from` gives each target pixel's true position in the source; `expected` the true labels.
template <typename From>
Check check(const cv::Mat& carried, const cv::Mat& expected, From from)
{
    Check c;
    for (int y = 0; y < carried.rows; ++y)
        for (int x = 0; x < carried.cols; ++x) {
            const cv::Point2f p = from(x, y);
            const std::uint8_t label = carried.at<std::uint8_t>(y, x);
            const bool outside = p.x < -1.5f || p.y < -1.5f || p.x > carried.cols + 0.5f || p.y > carried.rows + 0.5f;
            const bool wellInside = p.x >= 2 && p.y >= 2 && p.x <= carried.cols - 3 && p.y <= carried.rows - 3;
            if (label != kUnlabelled && outside)
                ++c.invented;
            else if (label != kUnlabelled && !nearlyRight(expected, x, y, label))
                ++c.wrong;
            if (wellInside) {
                ++c.inside;
                if (label == kUnlabelled)
                    ++c.missed;
            }
        }
    return c;
}

// The same scene seen by two frames: the source at (16, 16) of the scene, the target moved so its
// content is the source's shifted by (dx, dy).
struct Pair {
    cv::Mat sourceRgb, sourceLabels, targetRgb, expected;
};

Pair shifted(int dx, int dy)
{
    const Scene scene = makeScene(kFrame + cv::Size(32, 32));
    const cv::Rect source({16, 16}, kFrame), target({16 - dx, 16 - dy}, kFrame);
    Pair pair {scene.rgb(source).clone(), scene.labels(source).clone(), scene.rgb(target).clone(),
               scene.labels(target).clone()};
    return pair;
}

// A car of its own texture on a street, at `from` in the source and `to` in the target; the
// street still, or moved by `streetShift` (its content shifted as in shifted()).
Pair movingCar(cv::Point from, cv::Point to, cv::Point streetShift = {0, 0})
{
    const Scene street = makeScene(kFrame + cv::Size(32, 32)), car = makeScene(kFrame + cv::Size(32, 32));
    const cv::Size carSize(70, 50);
    const auto frame = [&](cv::Point at, cv::Point shift, cv::Mat& rgb, cv::Mat& labels) {
        rgb = street.rgb(cv::Rect(cv::Point(16, 16) - shift, kFrame)).clone();
        labels = cv::Mat(kFrame, CV_8UC1, cv::Scalar(0));
        cv::Mat body;
        car.rgb(cv::Rect({25, 25}, carSize)).convertTo(body, CV_8UC3, 0.5);
        cv::add(body, cv::Scalar(120, 0, 0), body);
        body.copyTo(rgb(cv::Rect(at, carSize)));
        labels(cv::Rect(at, carSize)).setTo(1);
    };
    Pair pair;
    frame(from, {0, 0}, pair.sourceRgb, pair.sourceLabels);
    frame(to, streetShift, pair.targetRgb, pair.expected);
    return pair;
}

}  // namespace

// Labels carried along a sequence by optical flow: right where the flow is right, nothing where it
// cannot say, and never over what the user protects.
class TestLabelPropagator : public QObject {
    Q_OBJECT

private slots:
    void shiftIsCarriedWithinOnePixel_data()
    {
        QTest::addColumn<int>("maxSide");
        QTest::addColumn<int>("preset");
        QTest::newRow("own size, medium") << 0 << int(paint::DenseFlow::Preset::Medium);
        QTest::newRow("own size, fast") << 0 << int(paint::DenseFlow::Preset::Fast);
        QTest::newRow("flow at half size") << 160 << int(paint::DenseFlow::Preset::Medium);
    }

    void shiftIsCarriedWithinOnePixel()
    {
        QFETCH(int, maxSide);
        QFETCH(int, preset);
        const int dx = 7, dy = 3;
        const Pair pair = shifted(dx, dy);
        paint::LabelPropagator::Parameters parameters;
        parameters.flow.maxSide = maxSide;
        parameters.flow.preset = paint::DenseFlow::Preset(preset);
        const auto result =
            paint::LabelPropagator(parameters).propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb);
        const Check c = check(result.labels, pair.expected,
                              [&](int x, int y) { return cv::Point2f(float(x - dx), float(y - dy)); });
        QCOMPARE(c.wrong, 0);
        QCOMPARE(c.invented, 0);
        QVERIFY2(c.missed * 100 <= c.inside, qPrintable(QStringLiteral("%1 of %2 missed").arg(c.missed).arg(c.inside)));
        QCOMPARE(result.carried, std::int64_t(cv::countNonZero(result.labels != kUnlabelled)));
        QCOMPARE(result.unlabelled, std::int64_t(kFrame.area()) - result.carried);
    }

    void theStripComingIntoViewStaysUnlabelled()
    {
        const Pair pair = shifted(7, 3);
        const auto result = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb);
        // Columns 0..6 and rows 0..2 show what the source never saw.
        QCOMPARE(cv::countNonZero(result.labels(cv::Rect(0, 0, 7, kFrame.height)) != kUnlabelled), 0);
        QCOMPARE(cv::countNonZero(result.labels(cv::Rect(0, 0, kFrame.width, 3)) != kUnlabelled), 0);
    }

    // Parameters::superpixelVote (issue 61, measured and off by default): the strip the flow
    // cannot carry takes the label its superpixel was mostly carried with, which here is right.
    void aSuperpixelsCarriedMajorityFillsWhatTheFlowCannotCarry()
    {
        const Pair pair = shifted(7, 3);
        paint::LabelPropagator::Parameters voting;
        voting.superpixelVote = 0.3;
        const auto plain = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb);
        const auto voted = paint::LabelPropagator(voting).propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb);
        const cv::Rect strip(0, 0, 7, kFrame.height);
        const int before = cv::countNonZero(plain.labels(strip) == kUnlabelled);
        const int after = cv::countNonZero(voted.labels(strip) == kUnlabelled);
        QCOMPARE(before, strip.area());
        QVERIFY2(after < before / 2, qPrintable(QStringLiteral("%1 of %2 still unlabelled").arg(after).arg(before)));
        int right = 0, given = 0;
        for (int y = strip.y; y < strip.br().y; ++y)
            for (int x = strip.x; x < strip.br().x; ++x) {
                const std::uint8_t label = voted.labels.at<std::uint8_t>(y, x);
                if (label == kUnlabelled)
                    continue;
                ++given;
                right += nearlyRight(pair.expected, x, y, label);
            }
        QVERIFY2(right >= 0.9 * given, qPrintable(QStringLiteral("%1 of %2 right").arg(right).arg(given)));
        // Where the flow carried, nothing changes.
        QCOMPARE(cv::countNonZero(voted.labels(cv::Rect(10, 5, 300, 230)) != plain.labels(cv::Rect(10, 5, 300, 230))), 0);
    }

    void rotationIsCarriedWithinOnePixel()
    {
        const cv::Size canvas = kFrame + cv::Size(64, 64);
        const Scene scene = makeScene(canvas);
        const cv::Point2f centre(float(canvas.width) / 2, float(canvas.height) / 2);
        const cv::Mat rotation = cv::getRotationMatrix2D(centre, 2.0, 1.0);
        Scene turned;
        cv::warpAffine(scene.rgb, turned.rgb, rotation, canvas, cv::INTER_LINEAR, cv::BORDER_REFLECT);
        cv::warpAffine(scene.labels, turned.labels, rotation, canvas, cv::INTER_NEAREST, cv::BORDER_CONSTANT,
                       cv::Scalar(kUnlabelled));
        const cv::Rect window({32, 32}, kFrame);
        const auto result =
            paint::LabelPropagator().propagate(scene.rgb(window), scene.labels(window), turned.rgb(window));

        cv::Mat inverse;
        cv::invertAffineTransform(rotation, inverse);
        const auto from = [&](int x, int y) {
            const double sx = x + window.x, sy = y + window.y;
            return cv::Point2f(float(inverse.at<double>(0, 0) * sx + inverse.at<double>(0, 1) * sy
                                     + inverse.at<double>(0, 2) - window.x),
                               float(inverse.at<double>(1, 0) * sx + inverse.at<double>(1, 1) * sy
                                     + inverse.at<double>(1, 2) - window.y));
        };
        const Check c = check(result.labels, turned.labels(window), from);
        QCOMPARE(c.wrong, 0);
        QCOMPARE(c.invented, 0);
        QVERIFY2(c.missed * 100 <= c.inside, qPrintable(QStringLiteral("%1 of %2 missed").arg(c.missed).arg(c.inside)));
    }

    void whatTheCarUncoversIsNotCalledCar_data()
    {
        QTest::addColumn<QPoint>("motion");
        QTest::newRow("right") << QPoint(12, 0);
        QTest::newRow("left") << QPoint(-9, 0);
        QTest::newRow("down and right") << QPoint(8, 5);
    }

    void whatTheCarUncoversIsNotCalledCar()
    {
        // The street the car leaves behind was hidden in the source: the forward-backward check
        // (and the margin around what fails it) keeps the car's label from being dragged over it,
        // and the street's from being dragged over the car's front.
        QFETCH(QPoint, motion);
        const cv::Point from(100, 90);
        const Pair pair = movingCar(from, from + cv::Point(motion.x(), motion.y()));
        const auto result = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb);
        const Check c =
            check(result.labels, pair.expected, [](int x, int y) { return cv::Point2f(float(x), float(y)); });
        QCOMPARE(c.wrong, 0);
        cv::Mat uncovered = (pair.sourceLabels == 1) & (pair.expected == 0);
        cv::erode(uncovered, uncovered, cv::Mat());
        QCOMPARE(cv::countNonZero(uncovered & (result.labels == 1)), 0);
        QVERIFY2(c.missed * 10 <= c.inside, qPrintable(QStringLiteral("%1 of %2 missed").arg(c.missed).arg(c.inside)));
    }

    void aPlainNoisySkyIsCarriedWhole()
    {
        // Sensor noise on a plain sky: DIS follows the noise, and the forward-backward check fails
        // nearly everywhere there. The sky has one label, so wherever the flow points it is sky.
        const int dx = 7, dy = 3;
        Pair pair = shifted(dx, dy);
        const cv::Rect top(0, 0, kFrame.width, 70);
        cv::RNG rng(7);
        for (cv::Mat* frame : {&pair.sourceRgb, &pair.targetRgb}) {
            cv::Mat noise(top.size(), CV_8UC3);
            rng.fill(noise, cv::RNG::UNIFORM, 0, 12);
            (*frame)(top).setTo(cv::Scalar(150, 170, 200));
            (*frame)(top) += noise;
        }
        pair.sourceLabels(top).setTo(9);
        const cv::Rect sky(dx + 2, dy + 2, kFrame.width - dx - 4, top.height - 10);
        paint::LabelPropagator::Parameters strict;
        strict.trustUniformLabels = false;
        const auto checkedOnly =
            paint::LabelPropagator(strict).propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb);
        QVERIFY(cv::countNonZero(checkedOnly.labels(sky) == kUnlabelled) > sky.area() / 2);  // why the rescue exists
        const auto result = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb);
        QCOMPARE(cv::countNonZero((result.labels(sky) != 9) & (result.labels(sky) != kUnlabelled)), 0);
        QVERIFY(cv::countNonZero(result.labels(sky) == kUnlabelled) * 10 < sky.area());
    }

    void identicalFramesGiveIdenticalLabels()
    {
        const Pair pair = shifted(0, 0);
        const auto result = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.sourceRgb);
        QCOMPARE(cv::countNonZero(result.labels != pair.sourceLabels), 0);
        QCOMPARE(result.carried, std::int64_t(kFrame.area()));
        QCOMPARE(result.unlabelled, std::int64_t(0));
        // And again: the same frames give the same labels.
        const auto again = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.sourceRgb);
        QCOMPARE(cv::countNonZero(again.labels != result.labels), 0);
    }

    void whatTheSourceLeftUnlabelledStaysSo()
    {
        const int dx = 7, dy = 3;
        Pair pair = shifted(dx, dy);
        const cv::Rect hole(100, 60, 80, 90);  // over the background, a car and a sign
        pair.sourceLabels(hole).setTo(kUnlabelled);
        // A sure model that would fill everything: it must not fill what the user left empty.
        paint::LabelPropagator::Prediction prediction {cv::Mat(kFrame, CV_8UC1, cv::Scalar(3)),
                                                       cv::Mat(kFrame, CV_8UC1, cv::Scalar(255))};
        const auto result = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb,
                                                               cv::Mat(), paint::WriteGuard(), prediction);
        const cv::Rect holeInTarget(hole.x + dx + 1, hole.y + dy + 1, hole.width - 2, hole.height - 2);
        QCOMPARE(cv::countNonZero(result.labels(holeInTarget) != kUnlabelled), 0);
    }

    void theGuardIsRespected()
    {
        const Pair pair = shifted(7, 3);
        cv::Mat target(kFrame, CV_8UC1, cv::Scalar(kUnlabelled));
        const cv::Rect locked(60, 60, 60, 40), painted(180, 100, 50, 50), inTheStrip(0, 100, 5, 20);
        target(locked).setTo(9);
        target(painted).setTo(4);
        target(inTheStrip).setTo(4);

        paint::WriteGuard protectNine;
        protectNine.setProtected(9, true);
        auto result =
            paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb, target, protectNine);
        QCOMPARE(cv::countNonZero(result.labels(locked) != 9), 0);
        QVERIFY(cv::countNonZero(result.labels(painted) != 4) > painted.area() / 2);  // class 4 is not locked
        QCOMPARE(cv::countNonZero(result.labels(inTheStrip) != 4), 0);  // nothing carried: kept, not erased

        paint::WriteGuard onlyUnlabelled;
        onlyUnlabelled.setOnlyUnlabelled(true);
        result = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb, target,
                                                    onlyUnlabelled);
        QCOMPARE(cv::countNonZero(result.labels(locked) != 9), 0);
        QCOMPARE(cv::countNonZero(result.labels(painted) != 4), 0);
        QCOMPARE(cv::countNonZero(result.labels(inTheStrip) != 4), 0);
        QVERIFY(result.carried > kFrame.area() / 2);
    }

    void theModelFillsWhereTheFlowFailsAndFlagsDisagreement_data()
    {
        QTest::addColumn<bool>("floatConfidence");
        QTest::newRow("confidence 0..255") << false;
        QTest::newRow("confidence 0..1") << true;
    }

    void theModelFillsWhereTheFlowFailsAndFlagsDisagreement()
    {
        QFETCH(bool, floatConfidence);
        const int dx = 7, dy = 3;
        const Pair pair = shifted(dx, dy);
        paint::LabelPropagator::Prediction prediction {pair.expected.clone(),
                                                       cv::Mat(kFrame, CV_8UC1, cv::Scalar(255))};
        const cv::Rect strip(0, 0, dx, kFrame.height), wrongAndSure(150, 20, 30, 30), wrongButUnsure(20, 80, 30, 30);
        prediction.classes(strip).setTo(6);
        prediction.classes(wrongAndSure).setTo(7);
        prediction.classes(wrongButUnsure).setTo(7);
        prediction.confidence(wrongButUnsure).setTo(60);
        if (floatConfidence)
            prediction.confidence.convertTo(prediction.confidence, CV_32F, 1.0 / 255);

        paint::LabelPropagator::Parameters keepCarried;
        keepCarried.modelOverrulesAbove = 256;  // the carried labels stay, however sure the model
        const auto result = paint::LabelPropagator(keepCarried).propagate(
            pair.sourceRgb, pair.sourceLabels, pair.targetRgb, cv::Mat(), paint::WriteGuard(), prediction);
        QCOMPARE(cv::countNonZero(result.labels(strip) != 6), 0);  // the flow had nothing there
        QVERIFY(result.filledByModel >= strip.area());
        // The carried labels stay; the sure disagreement is flagged, the unsure one is not.
        QCOMPARE(cv::countNonZero(result.labels(wrongAndSure) == 7), 0);
        QCOMPARE(cv::countNonZero(result.review(wrongAndSure)), wrongAndSure.area());
        QCOMPARE(cv::countNonZero(result.review(wrongButUnsure)), 0);
        QCOMPARE(result.disagree, std::int64_t(cv::countNonZero(result.review)));
        QVERIFY(result.disagree <= wrongAndSure.area() + 2 * kFrame.width);  // and little else: object edges at most
        QCOMPARE(result.unlabelled, std::int64_t(cv::countNonZero(result.labels == kUnlabelled)));
    }

    // Issue 61: frames close in time (a small motion) carry through a motion boundary's blend
    // where a prediction would otherwise fill the pixel; without a prediction, or when the frame
    // moved more than Parameters::smallMotion, nothing changes.
    void aSmallMotionCarriesWhereTheFillWouldGuess()
    {
        const cv::Point from(100, 90);
        const Pair pair = movingCar(from, from + cv::Point(3, 0));
        // A model that sees no car at all, surely.
        const paint::LabelPropagator::Prediction noCar{cv::Mat(kFrame, CV_8UC1, cv::Scalar(0)),
                                                       cv::Mat(kFrame, CV_8UC1, cv::Scalar(255))};
        paint::LabelPropagator::Parameters strict;
        strict.steadySpreadAtSmallMotion = strict.steadySpread;  // the rule off
        const auto propagate = [&pair](const paint::LabelPropagator::Parameters& parameters,
                                       const paint::LabelPropagator::Prediction& prediction) {
            return paint::LabelPropagator(parameters).propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb,
                                                                cv::Mat(), paint::WriteGuard(), prediction);
        };
        const auto before = propagate(strict, noCar);
        const auto now = propagate({}, noCar);
        const auto carRight = [&pair](const cv::Mat& labels) {
            return cv::countNonZero((labels == 1) & (pair.expected == 1));
        };
        QVERIFY2(now.filledByModel < before.filledByModel,
                 qPrintable(QStringLiteral("%1 filled, %2 before").arg(now.filledByModel).arg(before.filledByModel)));
        QVERIFY(carRight(now.labels) > carRight(before.labels));
        // What it carries lies within the blend: no car label farther than 4 px from the car.
        cv::Mat nearCar;
        cv::dilate(pair.expected == 1, nearCar, cv::getStructuringElement(cv::MORPH_RECT, {9, 9}));
        QCOMPARE(cv::countNonZero((now.labels == 1) & ~nearCar), 0);
        // Without a prediction the doubtful pixels stay unlabelled for the person, as before.
        const paint::LabelPropagator::Prediction none;
        QCOMPARE(cv::countNonZero(propagate(strict, none).labels != propagate({}, none).labels), 0);

        // The street moved (7, 3), about 7.6 px, the car 3 px more: under a smallMotion of 5 the
        // frame counts as far, under 10 as near.
        const Pair moved = movingCar(from, from + cv::Point(10, 3), {7, 3});
        const paint::LabelPropagator::Prediction wrong{cv::Mat(kFrame, CV_8UC1, cv::Scalar(6)),
                                                       cv::Mat(kFrame, CV_8UC1, cv::Scalar(255))};
        const auto movedWith = [&moved, &wrong](paint::LabelPropagator::Parameters parameters) {
            return paint::LabelPropagator(parameters)
                .propagate(moved.sourceRgb, moved.sourceLabels, moved.targetRgb, cv::Mat(), paint::WriteGuard(), wrong)
                .labels;
        };
        paint::LabelPropagator::Parameters far = strict, near = strict;
        far.steadySpreadAtSmallMotion = near.steadySpreadAtSmallMotion = paint::LabelPropagator::Parameters().steadySpreadAtSmallMotion;
        far.smallMotion = 5.0;
        near.smallMotion = 10.0;
        QCOMPARE(cv::countNonZero(movedWith(far) != movedWith(strict)), 0);
        QVERIFY(cv::countNonZero(movedWith(near) == 6) < cv::countNonZero(movedWith(strict) == 6));  // 10 px: near
    }

    // Issue 61.2: where the carried label and a prediction at least modelOverrulesAbove sure
    // disagree, the prediction takes the pixel; an unsure one does not; the open frame's own
    // labels are never the model's to replace.
    void aSurePredictionOverrulesACarriedLabel()
    {
        const Pair pair = shifted(7, 3);
        paint::LabelPropagator::Prediction prediction {pair.expected.clone(),
                                                       cv::Mat(kFrame, CV_8UC1, cv::Scalar(255))};
        const cv::Rect wrongAndSure(150, 20, 30, 30), wrongButUnsure(20, 80, 30, 30), usersOwn(200, 120, 20, 20);
        prediction.classes(wrongAndSure).setTo(7);
        prediction.classes(wrongButUnsure).setTo(7);
        prediction.classes(usersOwn).setTo(7);
        prediction.confidence(wrongButUnsure).setTo(150);
        cv::Mat target(kFrame, CV_8UC1, cv::Scalar(kUnlabelled));
        target(usersOwn).setTo(2);
        paint::LabelPropagator::Parameters parameters;
        parameters.modelOverrulesAbove = 200;
        const auto result = paint::LabelPropagator(parameters).propagate(
            pair.sourceRgb, pair.sourceLabels, pair.targetRgb, target, paint::WriteGuard(), prediction);
        QCOMPARE(cv::countNonZero(result.labels(wrongAndSure) != 7), 0);
        QCOMPARE(cv::countNonZero(result.labels(wrongButUnsure) == 7), 0);
        QVERIFY(result.overruled >= wrongAndSure.area());
        QCOMPARE(cv::countNonZero(result.review(wrongAndSure)), 0);  // taken, so nothing to review
        QVERIFY(cv::countNonZero(result.labels(usersOwn) == 7) == 0);

        // The default, 256: the carried labels always stay.
        const auto kept = paint::LabelPropagator().propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb,
                                                                       cv::Mat(), paint::WriteGuard(), prediction);
        QCOMPARE(kept.overruled, std::int64_t(0));
        QCOMPARE(cv::countNonZero(kept.labels(wrongAndSure) == 7), 0);
    }

    void mismatchedInputsAreRefused()
    {
        const Pair pair = shifted(0, 0);
        const paint::LabelPropagator propagator;
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            propagator.propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb(cv::Rect(0, 0, 100, 100))));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            propagator.propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb, cv::Mat(10, 10, CV_8UC1)));
        paint::LabelPropagator::Prediction prediction {cv::Mat(kFrame, CV_8UC1, cv::Scalar(0)),
                                                       cv::Mat(kFrame, CV_16UC1)};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 propagator.propagate(pair.sourceRgb, pair.sourceLabels, pair.targetRgb, cv::Mat(),
                                                      paint::WriteGuard(), prediction));
    }

    void tinyFramesAreTakenAsStill()
    {
        const cv::Mat rgb(8, 12, CV_8UC3, cv::Scalar(10, 20, 30));
        const cv::Mat labels(8, 12, CV_8UC1, cv::Scalar(2));
        const auto result = paint::LabelPropagator().propagate(rgb, labels, rgb);
        QCOMPARE(cv::countNonZero(result.labels != 2), 0);
    }
};

QTEST_GUILESS_MAIN(TestLabelPropagator)
#include "test_LabelPropagator.moc"
