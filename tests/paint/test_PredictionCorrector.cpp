// Issue 61.2: the model's prediction of a frame corrected by the frames labelled before it. Made on
// frames where the model is wrong in the same way every time (it calls the orange cars building) and
// where only the model tells two classes of the same colour and texture apart (sky and building of
// one grey): the corrected prediction must fix the first and keep the second.
#include "paint/PredictionCorrector.h"
#include "data/labels/LabelClass.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <stdexcept>

using segstudio::paint::PixelFeatures;
using segstudio::paint::PredictionCorrector;

namespace {

constexpr int kClasses = 11;
constexpr int kSky = 0, kBuilding = 1, kRoad = 3, kCar = 8, kPedestrian = 9;

struct Frame {
    cv::Mat rgb, truth, scores, modelClasses;
};

// The cache's scores (-ln p x 16 a class) of a model sure of `classes`, at half the image's size.
cv::Mat scoresOf(const cv::Mat& classes)
{
    cv::Mat small;
    cv::resize(classes, small, classes.size() / 2, 0, 0, cv::INTER_NEAREST);
    cv::Mat scores(small.size(), CV_8UC(kClasses));
    for (int y = 0; y < small.rows; ++y)
        for (int x = 0; x < small.cols; ++x)
            for (int c = 0; c < kClasses; ++c)
                scores.ptr<std::uint8_t>(y)[x * kClasses + c] = c == small.at<std::uint8_t>(y, x) ? 2 : 74;
    return scores;
}

// Sky and building of one grey above and below a blue road with orange cars starting at carX; the
// objects' truth is `carClass`, and the model calls them `modelSays`: building by default, so
// each car is a region of its own in the model's prediction, away from the building's.
Frame streetFrame(int carX, int carClass = kCar, int modelSays = kBuilding)
{
    const cv::Vec3b carColour(230, 140, 30);
    const cv::Size size(160, 120);
    Frame f;
    f.rgb = cv::Mat(size, CV_8UC3, cv::Scalar(128, 128, 128));
    f.truth = cv::Mat(size, CV_8UC1, cv::Scalar(kSky));
    f.truth.rowRange(40, 120).setTo(kBuilding);
    f.truth.rowRange(60, 100).setTo(kRoad);
    f.rgb.rowRange(60, 100).setTo(cv::Scalar(40, 60, 150));
    f.modelClasses = f.truth.clone();  // the cars are set below
    for (int x = carX; x + 24 <= size.width; x += 60) {
        const cv::Rect car(x, 68, 24, 20);
        f.rgb(car).setTo(cv::Scalar(carColour[0], carColour[1], carColour[2]));
        f.truth(car).setTo(carClass);
        f.modelClasses(car).setTo(modelSays);
    }
    cv::Mat noise(size, CV_8UC3);
    cv::randn(noise, 0, 5);
    f.rgb += noise;
    f.scores = scoresOf(f.modelClasses);
    return f;
}

double accuracy(const cv::Mat& predicted, const cv::Mat& truth, const cv::Mat& where = cv::Mat())
{
    const cv::Mat counted = where.empty() ? cv::Mat(truth.size(), CV_8UC1, cv::Scalar(255)) : where;
    return double(cv::countNonZero((predicted == truth) & counted)) / double(cv::countNonZero(counted));
}

}  // namespace

class TestPredictionCorrector : public QObject {
    Q_OBJECT

private slots:
    void scoresBecomeTheLastColumns()
    {
        const Frame f = streetFrame(10);
        PixelFeatures features(f.rgb);
        features.append(f.scores);
        QCOMPARE(features.columns(), PixelFeatures::count() + kClasses);
        QCOMPARE(features.rows().rows, 160 * 120);
        // A road pixel far from any edge: the road's score is the sure one, the sky's the unlikely one.
        const cv::Mat row = features.rows().row(features.rowOf(100, 62));
        QCOMPARE(row.at<float>(0, PixelFeatures::count() + kRoad), 2.0f);
        QCOMPARE(row.at<float>(0, PixelFeatures::count() + kSky), 74.0f);
    }

    // One labelled frame teaches it the model's mistake; the next frame, its cars elsewhere, is
    // predicted right where the model was wrong, and sky and building (one grey, told apart by the
    // model alone) stay right.
    void aLabelledFrameCorrectsTheNext()
    {
        cv::theRNG().state = 7;
        const Frame labelled = streetFrame(10), open = streetFrame(40);
        PredictionCorrector corrector;
        QVERIFY(!corrector.isReady());
        corrector.learn("frame_1", labelled.rgb, labelled.scores, labelled.truth);
        QVERIFY(corrector.isReady());

        const auto corrected = corrector.correct(open.rgb, open.scores);
        QCOMPARE(corrected.classes.size(), open.truth.size());
        const cv::Mat cars = open.truth == kCar, grey = (open.truth == kSky) | (open.truth == kBuilding);
        QVERIFY2(accuracy(open.modelClasses, open.truth, cars) == 0.0, "the model must be wrong on every car");
        QVERIFY2(accuracy(corrected.classes, open.truth, cars) > 0.9,
                 qPrintable(QString::number(accuracy(corrected.classes, open.truth, cars))));
        QVERIFY2(accuracy(corrected.classes, open.truth, grey) > 0.95,
                 qPrintable(QString::number(accuracy(corrected.classes, open.truth, grey))));
        const double carShare = double(cv::countNonZero(cars)) / double(cars.total());
        QVERIFY(accuracy(corrected.classes, open.truth) > accuracy(open.modelClasses, open.truth) + 0.8 * carShare);
        QCOMPARE(corrected.confidence.size(), open.truth.size());
    }

    // A frame larger than the features' working size (1024 px): the correction comes back at the
    // image's size, right where the model was wrong, and where it kept the model's class it keeps
    // the model's confidence too.
    void aLargeFrameIsCorrectedAtItsOwnSize()
    {
        cv::theRNG().state = 3;
        const auto enlarged = [](Frame f) {
            const cv::Size large(2080, 1560);  // 13 x: described at 1024 x 768
            cv::resize(f.rgb, f.rgb, large, 0, 0, cv::INTER_NEAREST);
            cv::resize(f.truth, f.truth, large, 0, 0, cv::INTER_NEAREST);
            cv::resize(f.modelClasses, f.modelClasses, large, 0, 0, cv::INTER_NEAREST);
            return f;  // the scores stay at the model's size, as the cache keeps them
        };
        const Frame labelled = enlarged(streetFrame(10)), open = enlarged(streetFrame(40));
        PredictionCorrector corrector;
        corrector.learn("frame_1", labelled.rgb, labelled.scores, labelled.truth);
        const auto corrected = corrector.correct(open.rgb, open.scores);
        QCOMPARE(corrected.classes.size(), open.truth.size());
        QCOMPARE(corrected.confidence.size(), open.truth.size());
        const cv::Mat cars = open.truth == kCar, road = open.truth == kRoad;
        QVERIFY2(accuracy(corrected.classes, open.truth, cars) > 0.9,
                 qPrintable(QString::number(accuracy(corrected.classes, open.truth, cars))));
        QVERIFY(accuracy(corrected.classes, open.truth, road) > 0.95);
        // On the road, which it kept, the model's own confidence: its score 2 is p = exp(-2 / 16), 225 of 255.
        QCOMPARE(open.truth.at<std::uint8_t>(1040, 1000), std::uint8_t(kRoad));
        QVERIFY(std::abs(int(corrected.confidence.at<std::uint8_t>(1040, 1000)) - 225) <= 1);
    }

    // Labels of a class the model has no score for (a class added to the project since) teach
    // nothing: no region is recoloured to it, nor because of it.
    void aClassTheModelLacksTeachesNothing()
    {
        cv::theRNG().state = 9;
        Frame labelled = streetFrame(10);
        const Frame open = streetFrame(40);
        labelled.truth.setTo(20, labelled.truth == kCar);  // the cars labelled with a class id past the scores
        PredictionCorrector corrector;
        corrector.learn("frame_1", labelled.rgb, labelled.scores, labelled.truth);
        const auto corrected = corrector.correct(open.rgb, open.scores);
        double largest = 0;
        cv::minMaxLoc(corrected.classes, nullptr, &largest);
        QVERIFY(largest < kClasses);
        QCOMPARE(cv::countNonZero(corrected.classes != open.modelClasses), 0);
    }

    // A region of the model's prediction is recoloured whole or not at all (a click's worth of
    // speckle costs more than it saves): cars the model calls road lie inside its road region, which
    // stays road. Pixel by pixel (regionShare 0) the forest takes them.
    void aRegionChangesWholeOrNotAtAll()
    {
        cv::theRNG().state = 5;
        const Frame labelled = streetFrame(10, kCar, kRoad), open = streetFrame(40, kCar, kRoad);
        const cv::Mat cars = open.truth == kCar;
        PredictionCorrector byRegion;
        byRegion.learn("frame_1", labelled.rgb, labelled.scores, labelled.truth);
        const auto regions = byRegion.correct(open.rgb, open.scores);
        QCOMPARE(cv::countNonZero(regions.classes != open.modelClasses), 0);

        PredictionCorrector::Options pixelOptions;
        pixelOptions.regionShare = 0;
        PredictionCorrector byPixel(pixelOptions);
        byPixel.learn("frame_1", labelled.rgb, labelled.scores, labelled.truth);
        const auto pixels = byPixel.correct(open.rgb, open.scores);
        QVERIFY2(accuracy(pixels.classes, open.truth, cars) > 0.9,
                 qPrintable(QString::number(accuracy(pixels.classes, open.truth, cars))));
    }

    // It learns from the last `frames` labelled frames only: the orange things were cars in the
    // first, pedestrians in the second; with a window of one frame the second alone is believed.
    void onlyTheNearestFramesCount()
    {
        cv::theRNG().state = 11;
        PredictionCorrector::Options oneFrame;
        oneFrame.frames = 1;
        PredictionCorrector corrector(oneFrame);
        const Frame first = streetFrame(10, kCar), second = streetFrame(25, kPedestrian), open = streetFrame(40);
        corrector.learn("frame_1", first.rgb, first.scores, first.truth);
        corrector.learn("frame_2", second.rgb, second.scores, second.truth);
        const cv::Mat orange = open.truth == kCar;
        const auto corrected = corrector.correct(open.rgb, open.scores);
        QVERIFY2(accuracy(corrected.classes, cv::Mat(open.truth.size(), CV_8UC1, cv::Scalar(kPedestrian)), orange) > 0.9,
                 "the newer frame's class must win");
    }

    void unusableInputIsRefused()
    {
        const Frame f = streetFrame(10);
        PredictionCorrector corrector;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, corrector.correct(f.rgb, f.scores));
        // One class only is nothing to tell apart: still not ready.
        corrector.learn("sky", f.rgb, f.scores, cv::Mat(f.truth.size(), CV_8UC1, cv::Scalar(kSky)));
        QVERIFY(!corrector.isReady());
        cv::Mat floatScores;
        f.scores.convertTo(floatScores, CV_32F);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, corrector.learn("f", f.rgb, floatScores, f.truth));
        corrector.learn("frame_1", f.rgb, f.scores, f.truth);
        std::vector<cv::Mat> planes;
        cv::split(f.scores, planes);
        planes.pop_back();
        cv::Mat tenClasses;
        cv::merge(planes, tenClasses);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, corrector.correct(f.rgb, tenClasses));
    }
};

QTEST_GUILESS_MAIN(TestPredictionCorrector)
#include "test_PredictionCorrector.moc"
