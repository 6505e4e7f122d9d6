// Issue 61.3: the stroke-click labels a thin structure along the image's edges. Made on a street
// wall with a slanted pole a few pixels wide, a patch of the pole's colour just beyond the stroke's
// reach, and noise, so that neither a threshold nor a box would give the answer.
#include "paint/StrokeSegmenter.h"

#include <QtTest>

#include <opencv2/imgproc.hpp>

using segstudio::paint::RegionMask;
using segstudio::paint::StrokeSegmenter;

namespace {

struct PoleScene {
    cv::Mat rgb;
    cv::Mat pole;  // CV_8UC1, 255 on the pole
    cv::Point top, bottom;
};

// A wall of mottled beige, a dark slanted pole `width` px wide from top to bottom, and a dark
// patch of the pole's colour `gap` px beside it.
PoleScene poleScene(cv::Size size, int width, int gap)
{
    PoleScene scene;
    cv::RNG rng(7);
    scene.rgb = cv::Mat(size, CV_8UC3, cv::Scalar(175, 160, 130));
    cv::Mat noise(size, CV_8UC3);
    rng.fill(noise, cv::RNG::NORMAL, 0, 8);
    scene.rgb += noise;
    scene.top = {size.width / 2 - size.height / 10, size.height / 10};
    scene.bottom = {size.width / 2 + size.height / 10, size.height * 9 / 10};
    scene.pole = cv::Mat(size, CV_8UC1, cv::Scalar(0));
    cv::line(scene.pole, scene.top, scene.bottom, cv::Scalar(255), width, cv::LINE_8);
    cv::Mat poleColour(size, CV_8UC3, cv::Scalar(70, 72, 80));
    poleColour += noise;
    poleColour.copyTo(scene.rgb, scene.pole);
    const cv::Rect patch(scene.bottom.x + width + gap, size.height / 2, 30, 30);
    poleColour(patch).copyTo(scene.rgb(patch));
    return scene;
}

cv::Mat fullOf(const RegionMask& region, cv::Size size)
{
    cv::Mat full(size, CV_8UC1, cv::Scalar(0));
    if (!region.empty())
        region.mask.copyTo(full(region.bounds));
    return full != 0;
}

double iouOf(const cv::Mat& a, const cv::Mat& b)
{
    return double(cv::countNonZero(a & b)) / double(std::max(1, cv::countNonZero(a | b)));
}

}  // namespace

class TestStrokeSegmenter : public QObject {
    Q_OBJECT

private slots:
    // A drag along the pole's middle, from end to end, gives the pole: within a pixel of its
    // edges all the way down (IoU >= 0.9 on a 5 px pole means that).
    void aStrokeAlongAPoleGivesThePole()
    {
        const PoleScene scene = poleScene({360, 480}, 5, 14);
        const cv::Mat region = fullOf(StrokeSegmenter::region(scene.rgb, {scene.top, scene.bottom}), scene.rgb.size());
        QVERIFY2(iouOf(region, scene.pole) >= 0.9, qPrintable(QString::number(iouOf(region, scene.pole))));
    }

    // The region stays within the corridor: the patch of the pole's colour beyond it is not taken,
    // however alike it looks.
    void theRegionStaysWithinTheCorridor()
    {
        const PoleScene scene = poleScene({360, 480}, 5, 4);
        StrokeSegmenter::Parameters parameters;
        parameters.corridor = 8;
        const cv::Mat region = fullOf(StrokeSegmenter::region(scene.rgb, {scene.top, scene.bottom}, parameters),
                                      scene.rgb.size());
        cv::Mat stroke(scene.rgb.size(), CV_8UC1, cv::Scalar(0));
        cv::line(stroke, scene.top, scene.bottom, cv::Scalar(255), 1, cv::LINE_8);
        cv::Mat distance;
        cv::distanceTransform(stroke == 0, distance, cv::DIST_L2, cv::DIST_MASK_PRECISE);
        QCOMPARE(cv::countNonZero(region & (distance > 8.0f)), 0);
        QCOMPARE(cv::countNonZero(stroke & ~region), 0);  // every stroke pixel is inside
        cv::Mat ids;
        QCOMPARE(cv::connectedComponents(region, ids, 8), 2);  // one piece (and the outside)
    }

    // The same pole, 3 px wide, in a 4000x3000 frame: the cut runs at the image's own pixels.
    void fullResolutionOnALargeFrame()
    {
        const PoleScene scene = poleScene({4000, 3000}, 3, 40);
        StrokeSegmenter::Parameters parameters;
        parameters.corridor = 8;
        const cv::Mat region = fullOf(StrokeSegmenter::region(scene.rgb, {scene.top, scene.bottom}, parameters),
                                      scene.rgb.size());
        QVERIFY2(iouOf(region, scene.pole) >= 0.85, qPrintable(QString::number(iouOf(region, scene.pole))));
    }

    // Where the model's margins are given they count: a model sure the stroke's colour is not the
    // class beside the pole keeps that from the region even when the colours would let it in.
    void theModelsMarginsJoin()
    {
        PoleScene scene = poleScene({360, 480}, 5, 14);
        // A band of the pole's colour touching it on the right, which the colours alone take.
        cv::Mat band(scene.rgb.size(), CV_8UC1, cv::Scalar(0));
        cv::line(band, scene.top + cv::Point(5, 0), scene.bottom + cv::Point(5, 0), cv::Scalar(255), 5, cv::LINE_8);
        band &= ~scene.pole;
        scene.rgb.setTo(cv::Scalar(70, 72, 80), band);
        const cv::Mat colourOnly = fullOf(StrokeSegmenter::region(scene.rgb, {scene.top, scene.bottom}), scene.rgb.size());
        QVERIFY(cv::countNonZero(colourOnly & band) > cv::countNonZero(band) / 2);
        cv::Mat margins(scene.rgb.size(), CV_32FC1, cv::Scalar(-4.0f));
        margins.setTo(4.0f, scene.pole);
        StrokeSegmenter::Parameters parameters;
        parameters.modelWeight = 3.0;
        const cv::Mat withModel =
            fullOf(StrokeSegmenter::region(scene.rgb, {scene.top, scene.bottom}, parameters, margins), scene.rgb.size());
        QVERIFY(cv::countNonZero(withModel & band) < cv::countNonZero(band) / 10);
    }

    void aStrokeOutsideTheImageIsNothing()
    {
        const PoleScene scene = poleScene({120, 160}, 3, 10);
        QVERIFY(StrokeSegmenter::region(scene.rgb, {{-100, -100}, {-50, -60}}).empty());
        QVERIFY(StrokeSegmenter::region(scene.rgb, {}).empty());
        const RegionMask dot = StrokeSegmenter::region(scene.rgb, {{60, 60}});
        QVERIFY(!dot.empty());
        QVERIFY(dot.bounds.contains({60, 60}));
    }
};

QTEST_APPLESS_MAIN(TestStrokeSegmenter)
#include "test_StrokeSegmenter.moc"
