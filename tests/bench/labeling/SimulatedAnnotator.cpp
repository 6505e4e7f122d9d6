#include "SimulatedAnnotator.h"

#include "paint/GrabCutSegmenter.h"
#include "paint/PixelClassifier.h"
#include "paint/RegionMask.h"
#include "paint/StrokeSegmenter.h"
#include "paint/WriteGuard.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/imgproc/segmentation.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace segstudio::bench {

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The largest 4-connected piece of a mask, as a full-size mask, its bounds and area.
struct Piece {
    cv::Mat mask;
    cv::Rect bounds;
    std::int64_t area = 0;
};

// BENCH_ANNOTATOR_STEPS: what one step did, and how much of it fell on labels other than the clicked one.
void printStep(const SimulatedAnnotator::Target& target, const cv::Mat& before, const cv::Mat& labels, const cv::Mat& truth,
               double accuracy, double after)
{
    const cv::Mat known = truth != SimulatedAnnotator::kVoid;
    const cv::Mat fixed = (labels == truth) & (before != truth) & known;
    const cv::Mat broken = (labels != truth) & (before == truth) & known;
    const cv::Mat otherLabel = before != target.currentLabel;
    std::fprintf(stderr,
                 "    target class %d label %d area %lld at (%d,%d): %.4f -> %.4f (fixed %d, broke %d, in target %d; "
                 "of other labels: fixed %d, broke %d)\n",
                 target.truthClass, target.currentLabel, (long long)target.area, target.at.x, target.at.y, accuracy, after,
                 cv::countNonZero(fixed), cv::countNonZero(broken), cv::countNonZero((labels == truth) & target.region),
                 cv::countNonZero(fixed & otherLabel), cv::countNonZero(broken & otherLabel));
}

Piece largestPiece(const cv::Mat& mask)
{
    cv::Mat ids, stats, centroids;
    const int count = cv::connectedComponentsWithStats(mask, ids, stats, centroids, 4, CV_32S);
    Piece best;
    int bestId = 0;
    for (int id = 1; id < count; ++id) {
        const std::int64_t area = stats.at<int>(id, cv::CC_STAT_AREA);
        if (area > best.area) {
            best.area = area;
            bestId = id;
        }
    }
    if (bestId == 0)
        return best;
    best.mask = ids == bestId;
    best.bounds = {stats.at<int>(bestId, cv::CC_STAT_LEFT), stats.at<int>(bestId, cv::CC_STAT_TOP),
                   stats.at<int>(bestId, cv::CC_STAT_WIDTH), stats.at<int>(bestId, cv::CC_STAT_HEIGHT)};
    return best;
}

cv::Mat regionToFull(const paint::RegionMask& region, cv::Size size)
{
    cv::Mat full(size, CV_8UC1, cv::Scalar(0));
    if (!region.empty())
        region.mask.copyTo(full(region.bounds));
    return full != 0;
}

}  // namespace

int SimulatedAnnotator::Trace::actionsTo(double accuracy) const
{
    if (startAccuracy >= accuracy)
        return startActions;
    for (const Step& step : steps)
        if (step.accuracy >= accuracy)
            return step.actions;
    return -1;
}

// The scribble mode's state for one image: its features, the classifier, and the pixels the person
// has fixed (scribbles, and polygons where a scribble did not help), 255 elsewhere.
struct SimulatedAnnotator::Scribbles {
    paint::PixelFeatures features;
    paint::PixelClassifier classifier;
    cv::Mat fixed;
};

SimulatedAnnotator::SimulatedAnnotator(Mode mode, Options options) : m_mode(mode), m_options(std::move(options)) {}

std::optional<SimulatedAnnotator::Mode> SimulatedAnnotator::modeNamed(const std::string& name)
{
    for (Mode mode : {Mode::Superpixel, Mode::Polygon, Mode::Prediction, Mode::Smart, Mode::GrabCut, Mode::Propagate,
                      Mode::Scribble})
        if (nameOf(mode) == name)
            return mode;
    return std::nullopt;
}

std::string SimulatedAnnotator::nameOf(Mode mode)
{
    switch (mode) {
    case Mode::Superpixel: return "superpixel";
    case Mode::Polygon: return "polygon";
    case Mode::Prediction: return "prediction";
    case Mode::Smart: return "smart";
    case Mode::GrabCut: return "grabcut";
    case Mode::Propagate: return "propagate";
    case Mode::Scribble: return "scribble";
    }
    return {};
}

double SimulatedAnnotator::pixelAccuracy(const cv::Mat& labels, const cv::Mat& truth)
{
    const cv::Mat counted = truth != kVoid;
    const int total = cv::countNonZero(counted);
    return total > 0 ? double(cv::countNonZero((labels == truth) & counted)) / total : 1.0;
}

cv::Point SimulatedAnnotator::farthestInterior(const cv::Mat& mask)
{
    cv::Mat padded, distance;
    cv::copyMakeBorder(mask, padded, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::distanceTransform(padded != 0, distance, cv::DIST_L2, cv::DIST_MASK_PRECISE);
    cv::Point at;
    cv::minMaxLoc(distance, nullptr, nullptr, nullptr, &at);
    return at - cv::Point(1, 1);
}

double SimulatedAnnotator::iouOf(const cv::Mat& a, const cv::Mat& b)
{
    const double both = cv::countNonZero(a & b), either = cv::countNonZero(a | b);
    return either > 0 ? both / either : 1.0;
}

double SimulatedAnnotator::halfWidth(const cv::Mat& mask)
{
    cv::Mat padded, distance;
    cv::copyMakeBorder(mask, padded, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::distanceTransform(padded != 0, distance, cv::DIST_L2, cv::DIST_MASK_PRECISE);
    double widest = 0;
    cv::minMaxLoc(distance, nullptr, &widest);
    return widest;
}

bool SimulatedAnnotator::strokeFits(const cv::Mat& mask, std::int64_t area, const Options& options)
{
    if (options.thinRadius <= 0 || area < 8)
        return false;
    const double radius = halfWidth(mask);
    return radius <= options.thinRadius && double(area) >= options.thinElongation * 4.0 * radius * radius;
}

std::vector<cv::Point> SimulatedAnnotator::strokeAlong(const cv::Mat& mask)
{
    std::vector<cv::Point> pixels;
    cv::findNonZero(mask, pixels);
    if (pixels.empty())
        return {};
    // The main axis (the pixels' principal component), and each pixel's position along it.
    cv::Mat data(int(pixels.size()), 2, CV_32F);
    for (int i = 0; i < data.rows; ++i) {
        data.at<float>(i, 0) = float(pixels[std::size_t(i)].x);
        data.at<float>(i, 1) = float(pixels[std::size_t(i)].y);
    }
    const cv::PCA pca(data, cv::Mat(), cv::PCA::DATA_AS_ROW, 1);
    const cv::Vec2f axis(pca.eigenvectors.at<float>(0, 0), pca.eigenvectors.at<float>(0, 1));
    const cv::Vec2f mean(pca.mean.at<float>(0, 0), pca.mean.at<float>(0, 1));
    std::vector<float> along(pixels.size());
    for (std::size_t i = 0; i < pixels.size(); ++i)
        along[i] = (cv::Vec2f(float(pixels[i].x), float(pixels[i].y)) - mean).dot(axis);
    const auto [lowest, highest] = std::minmax_element(along.begin(), along.end());
    const float from = *lowest, length = std::max(1.0f, *highest - *lowest);
    // A point every ~15 px: the middle of each stretch, snapped onto the region (a person's drag
    // stays on the thing it follows).
    const int stretches = std::clamp(int(std::lround(length / 15.0f)), 1, 16);
    std::vector<cv::Point2d> sum(static_cast<std::size_t>(stretches));
    std::vector<int> count(std::size_t(stretches), 0);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        const int s = std::min(stretches - 1, int((along[i] - from) / length * float(stretches)));
        sum[std::size_t(s)] += cv::Point2d(pixels[i]);
        ++count[std::size_t(s)];
    }
    std::vector<cv::Point> stroke{pixels[std::size_t(lowest - along.begin())]};
    for (int s = 0; s < stretches; ++s) {
        if (count[std::size_t(s)] == 0)
            continue;
        const cv::Point2d centre = sum[std::size_t(s)] / double(count[std::size_t(s)]);
        cv::Point at(cvRound(centre.x), cvRound(centre.y));
        if (!mask.at<std::uint8_t>(at)) {
            double best = 1e18;
            for (const cv::Point& p : pixels) {
                const double d = cv::norm(cv::Point2d(p) - centre);
                if (d < best) {
                    best = d;
                    at = p;
                }
            }
        }
        stroke.push_back(at);
    }
    stroke.push_back(pixels[std::size_t(highest - along.begin())]);
    return stroke;
}

paint::RegionMask SimulatedAnnotator::strokeRegion(const cv::Mat& rgb, const cv::Mat& mask, const Options& options)
{
    paint::StrokeSegmenter::Parameters parameters;
    parameters.corridor = int(std::ceil(2.0 * halfWidth(mask))) + options.strokeSlack;
    return paint::StrokeSegmenter::region(rgb, strokeAlong(mask), parameters);
}

std::optional<SimulatedAnnotator::Target> SimulatedAnnotator::nextTarget(const cv::Mat& labels, const cv::Mat& truth)
{
    const cv::Mat wrong = (labels != truth) & (truth != kVoid);
    if (cv::countNonZero(wrong) == 0)
        return std::nullopt;
    // Error pixels of one true class form a region: the click's class is then one answer.
    Target best;
    for (int c = 0; c < kVoid; ++c) {
        const cv::Mat ofClass = wrong & (truth == c);
        if (cv::countNonZero(ofClass) <= best.area)
            continue;
        Piece piece = largestPiece(ofClass);
        if (piece.area > best.area) {
            best.area = piece.area;
            best.region = std::move(piece.mask);
            best.bounds = piece.bounds;
            best.truthClass = c;
        }
    }
    best.at = farthestInterior(best.region);
    best.currentLabel = labels.at<std::uint8_t>(best.at);
    return best;
}

bool SimulatedAnnotator::takeBackSpill(cv::Mat& labels, const cv::Mat& before, const Target& target, const cv::Mat& truth,
                                       std::optional<paint::SmartClickSession>& session)
{
    // Only a click of the target's class that fixed some of it: its spill is the right pixels it
    // made wrong, and the largest piece of those gets a Shift+click in the same session.
    if (!session || session->classId() != target.truthClass || cv::countNonZero((labels == truth) & target.region) == 0)
        return false;
    const Piece spill = largestPiece((labels != truth) & (before == truth) & (truth != kVoid));
    if (spill.area == 0)
        return false;
    const paint::SmartClickSession::Click back{farthestInterior(spill.mask), false};
    session->apply(labels, back, session->regionWith(back), paint::WriteGuard());
    return true;
}

int SimulatedAnnotator::traceWithPolygon(cv::Mat& labels, const Target& target) const
{
    return traceWithPolygonOptions(labels, target, m_options);
}

int SimulatedAnnotator::traceWithPolygonOptions(cv::Mat& labels, const Target& target, const Options& options)
{
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(target.region.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
    const auto largest = std::max_element(contours.begin(), contours.end(),
                                          [](const auto& a, const auto& b) { return a.size() < b.size(); });
    if (largest == contours.end())
        return 0;
    std::vector<cv::Point> vertices;
    cv::approxPolyDP(*largest, vertices, options.polygonTolerance, /*closed=*/true);
    paint::RegionMask::polygon(labels.size(), vertices).paint(labels, std::uint8_t(target.truthClass), paint::WriteGuard());
    // A polygon is at least three clicks, however small the region.
    return std::max(3, int(vertices.size()));
}

int SimulatedAnnotator::act(cv::Mat& labels, const Target& target, const Image& image,
                            const paint::SuperpixelMap& superpixels, const paint::SmartClickSegmenter& smart,
                            std::optional<paint::SmartClickSession>& session, Scribbles* scribbles) const
{
    const auto truthClass = std::uint8_t(target.truthClass);
    const paint::WriteGuard anything;
    switch (m_mode) {
    case Mode::Superpixel:
    case Mode::Prediction: {
        superpixels.region({superpixels.idAt(target.at)}).paint(labels, truthClass, anything);
        return 1;
    }
    case Mode::Polygon:
        return traceWithPolygon(labels, target);
    case Mode::Scribble:
        return scribble(labels, target, *scribbles);
    case Mode::GrabCut: {
        // The box a person drags around the region, a little outside it.
        const int margin = std::max(4, std::max(target.bounds.width, target.bounds.height) / 10);
        const cv::Rect box = cv::Rect(target.bounds.x - margin, target.bounds.y - margin, target.bounds.width + 2 * margin,
                                      target.bounds.height + 2 * margin) &
                             cv::Rect({}, labels.size());
        paint::GrabCutSegmenter::fromRect(image.rgb, box).paint(labels, truthClass, anything);
        return 1;
    }
    case Mode::Smart:
    case Mode::Propagate: {
        if (strokeFits(target.region, target.area, m_options)) {
            // A thin region: a stroke along it (one action, an edit of its own: the session ends).
            session.reset();
            strokeRegion(image.rgb, target.region, m_options).paint(labels, truthClass, anything);
            return 1;
        }
        // The session's own excess is taken back with a negative click; anything else is a
        // positive click of the true class, in the session when it has that class.
        const bool excess = session && target.currentLabel == session->classId() && !session->region().empty() &&
                            session->region().bounds.contains(target.at) &&
                            session->region().mask.at<std::uint8_t>(target.at - session->region().bounds.tl()) != 0;
        paint::SmartClickSession::Click click{target.at, !excess};
        if (!excess && (!session || session->classId() != target.truthClass))
            session.emplace(smart, target.truthClass, labels);
        session->apply(labels, click, session->regionWith(click), anything);
        return 1;
    }
    }
    return 0;
}

// A stroke along the target region (inside it, with the brush's width), then the classifier
// retrained on everything fixed so far predicts the image; the labels are its prediction with the
// fixed pixels kept. Until two classes have strokes nothing is predicted (as in the editor).
int SimulatedAnnotator::scribble(cv::Mat& labels, const Target& target, Scribbles& scribbles) const
{
    cv::Mat stroke(labels.size(), CV_8UC1, cv::Scalar(0));
    const std::vector<cv::Point> path = strokeAlong(target.region);
    if (path.size() == 1)
        cv::circle(stroke, path.front(), m_options.scribbleWidth / 2, cv::Scalar(255), cv::FILLED);
    else
        cv::polylines(stroke, path, false, cv::Scalar(255), m_options.scribbleWidth);
    stroke &= target.region;
    stroke.at<std::uint8_t>(target.at) = 255;
    scribbles.fixed.setTo(target.truthClass, stroke);
    scribbles.classifier.setExamples("image", scribbles.features, scribbles.fixed);
    if (scribbles.classifier.train()) {
        labels = scribbles.classifier.predict(scribbles.features, m_options.classes).classes;
        scribbles.fixed.copyTo(labels, scribbles.fixed != kVoid);
    } else {
        labels.setTo(target.truthClass, stroke);
    }
    return 1;
}

SimulatedAnnotator::Trace SimulatedAnnotator::label(const Image& image, const cv::Mat& start) const
{
    Trace trace;
    // Propagate's first frame has nothing to carry: it is labelled as Smart labels it (before issue
    // 61 it started from an empty map, which charged propagation for the sequence's first frame).
    const bool fromPrediction = m_mode == Mode::Prediction || m_mode == Mode::Smart
                             || (m_mode == Mode::Propagate && start.empty());
    const bool fromStart = m_mode == Mode::Propagate && !start.empty();
    cv::Mat labels = fromPrediction ? image.predicted.clone()
                     : fromStart    ? start.clone()
                                    : cv::Mat(image.truth.size(), CV_8UC1, cv::Scalar(kVoid));
    // Scribble: accepting the classifier's prediction, once.
    trace.startActions = fromPrediction || fromStart || m_mode == Mode::Scribble ? 1 : 0;
    trace.startAccuracy = pixelAccuracy(labels, image.truth);

    const auto prepareStart = Clock::now();
    paint::SuperpixelMap superpixels;
    if (m_mode == Mode::Superpixel || m_mode == Mode::Prediction)
        superpixels = paint::SuperpixelMap::compute(image.rgb, m_options.superpixelSize);
    paint::SmartClickSegmenter smart;
    if (m_mode == Mode::Smart || m_mode == Mode::Propagate)
        smart = paint::SmartClickSegmenter(image.scores, image.rgb, m_options.smart);
    std::optional<Scribbles> scribbles;
    if (m_mode == Mode::Scribble) {
        scribbles.emplace(Scribbles{paint::PixelFeatures(image.rgb),
                                    m_options.scribblePrior ? *m_options.scribblePrior : paint::PixelClassifier(),
                                    cv::Mat(image.truth.size(), CV_8UC1, cv::Scalar(kVoid))});
        if (scribbles->classifier.train()) {  // what it learned on other images, before any stroke here
            labels = scribbles->classifier.predict(scribbles->features, m_options.classes).classes;
            trace.startAccuracy = pixelAccuracy(labels, image.truth);
        }
    }
    trace.prepareMilliseconds = millisecondsSince(prepareStart);

    std::optional<paint::SmartClickSession> session;
    std::vector<int> budgets = m_options.budgets;
    std::vector<cv::Mat> atBudget(budgets.size());
    int actions = trace.startActions;
    double accuracy = trace.startAccuracy;
    while (accuracy < m_options.target && actions < m_options.maxActions) {
        const auto target = nextTarget(labels, image.truth);
        if (!target)
            break;
        const cv::Mat before = labels.clone();
        const auto start = Clock::now();
        int used = act(labels, *target, image, superpixels, smart, session, scribbles ? &*scribbles : nullptr);
        const double milliseconds = millisecondsSince(start);
        // A person sees what an action did: one that fixes nothing of the region it was aimed at,
        // or leaves the image no better, is undone and the region traced with the polygon instead
        // (the action still counts; the smart session ends with that other edit).
        double after = pixelAccuracy(labels, image.truth);
        if (std::getenv("BENCH_ANNOTATOR_STEPS"))
            printStep(*target, before, labels, image.truth, accuracy, after);
        bool helped = after > accuracy && cv::countNonZero((labels == image.truth) & target->region) > 0;
        if (!helped && m_options.negativeAfterSpill && takeBackSpill(labels, before, *target, image.truth, session)) {
            used += 1;
            after = pixelAccuracy(labels, image.truth);
            helped = after > accuracy && cv::countNonZero((labels == image.truth) & target->region) > 0;
        }
        int traced = 0;
        if (!helped) {
            before.copyTo(labels);
            traced = traceWithPolygon(labels, *target);
            used += traced;
            session.reset();
            if (scribbles)  // the traced pixels are the person's from now on
                scribbles->fixed.setTo(target->truthClass, labels != before);
        }
        for (std::size_t b = 0; b < budgets.size(); ++b)
            if (actions <= budgets[b] && actions + used > budgets[b] && atBudget[b].empty())
                atBudget[b] = before;
        actions += used;
        accuracy = helped ? after : pixelAccuracy(labels, image.truth);
        trace.steps.push_back({actions, accuracy, milliseconds, target->truthClass, traced});
    }
    for (std::size_t b = 0; b < budgets.size(); ++b)
        trace.labelsAtBudgets.emplace_back(budgets[b], atBudget[b].empty() ? labels.clone() : atBudget[b]);
    trace.finalLabels = labels;
    return trace;
}

int SimulatedAnnotator::clicksToIoU(Mode mode, const Image& image, const cv::Mat& object, int objectClass, double iou,
                                    int maxClicks, const paint::SmartClickSegmenter* smart)
{
    return clicksToIoU(mode, image, object, objectClass, iou, maxClicks, smart, Options());
}

int SimulatedAnnotator::clicksToIoU(Mode mode, const Image& image, const cv::Mat& object, int objectClass, double iou,
                                    int maxClicks, const paint::SmartClickSegmenter* smart, const Options& options)
{
    return clicksToIoUs(mode, image, object, objectClass, {iou}, maxClicks, smart, options).reached.front();
}

// The object outlined with the polygon tool from its own true outline: the outline's mask and its
// vertices (each one action).
std::pair<cv::Mat, int> SimulatedAnnotator::outlineMaskOf(const cv::Mat& object, const Options& options)
{
    cv::Mat outline(object.size(), CV_8UC1, cv::Scalar(0));
    Target whole;
    whole.region = object.clone();
    whole.truthClass = 255;  // painted into a mask
    const int vertices = traceWithPolygonOptions(outline, whole, options);
    return {outline > 0, vertices};
}

std::pair<double, int> SimulatedAnnotator::outlineOf(const cv::Mat& object, const Options& options)
{
    const auto [mask, vertices] = outlineMaskOf(object, options);
    return {iouOf(mask, object), vertices};
}

std::pair<double, int> SimulatedAnnotator::scissorsOutlineOf(const cv::Mat& rgb, const cv::Mat& object,
                                                             const Options& options)
{
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(object.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
    const auto largest = std::max_element(contours.begin(), contours.end(),
                                          [](const auto& a, const auto& b) { return a.size() < b.size(); });
    if (largest == contours.end() || largest->size() < 3)
        return {0.0, 3};
    const std::vector<cv::Point>& outline = *largest;
    const cv::Rect roi = (cv::boundingRect(outline) + cv::Size(32, 32) - cv::Point(16, 16)) & cv::Rect({}, object.size());
    cv::segmentation::IntelligentScissorsMB scissors;
    // OpenCV's sample's features (Canny 32/100); its zero crossings gave the same figures.
    scissors.setEdgeFeatureCannyParameters(32, 100).setGradientMagnitudeMaxLimit(200);
    scissors.applyImage(rgb(roi));
    // How far each pixel of the region of interest lies from the true outline.
    cv::Mat away(roi.size(), CV_8UC1, cv::Scalar(255)), distance;
    std::vector<cv::Point> local;
    for (const cv::Point& p : outline)
        local.push_back(p - roi.tl());
    cv::polylines(away, local, true, cv::Scalar(0));
    cv::distanceTransform(away, distance, cv::DIST_L2, 3);
    const auto follows = [&](const std::vector<cv::Point>& wire) {
        return std::all_of(wire.begin(), wire.end(), [&](const cv::Point& p) {
            return distance.at<float>(p) <= options.polygonTolerance;
        });
    };
    const int n = int(local.size());
    // Outline points between the places a person checks the wire; the first wire from an anchor
    // (3 points) is taken unchecked, as a polygon's next vertex would be.
    constexpr int kStep = 3;
    std::vector<cv::Point> traced;
    int anchors = 0;
    for (int from = 0; from < n;) {
        ++anchors;
        scissors.buildMap(local[std::size_t(from)]);
        int to = std::min(n, from + kStep);
        std::vector<cv::Point> wire, good;
        scissors.getContour(local[std::size_t(to % n)], good);
        for (int next = to + kStep; next <= n; next = std::min(n, next + kStep)) {
            scissors.getContour(local[std::size_t(next % n)], wire);
            if (!follows(wire))
                break;
            to = next;
            good = wire;
            if (next == n)
                break;
        }
        traced.insert(traced.end(), good.begin(), good.end());
        from = to;
    }
    cv::Mat mask(object.size(), CV_8UC1, cv::Scalar(0));
    std::vector<cv::Point> global;
    for (const cv::Point& p : traced)
        global.push_back(p + roi.tl());
    cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{global}, cv::Scalar(255));
    cv::polylines(mask, global, true, cv::Scalar(255));
    return {iouOf(mask, object), std::max(3, anchors)};
}

// The NoC region of the clicks so far, with the strokes (and the outline) added or taken back in order.
cv::Mat SimulatedAnnotator::regionOf(const std::vector<paint::SmartClickSegmenter::Click>& clicks,
                                     const std::vector<std::pair<cv::Mat, bool>>& strokes,
                                     const paint::SmartClickSegmenter* smart, int objectClass, cv::Size size)
{
    cv::Mat region = clicks.empty() ? cv::Mat(size, CV_8UC1, cv::Scalar(0)) : regionToFull(smart->region(clicks, objectClass), size);
    for (const auto& [stroke, adds] : strokes)
        region = adds ? region | stroke : region & ~stroke;
    return region;
}

SimulatedAnnotator::ObjectClicks SimulatedAnnotator::clicksToIoUs(Mode mode, const Image& image, const cv::Mat& object, int objectClass,
                                                  const std::vector<double>& ious, int maxClicks,
                                                  const paint::SmartClickSegmenter* smart, const Options& options)
{
    const cv::Size size = object.size();
    cv::Mat region(size, CV_8UC1, cv::Scalar(0));
    std::vector<paint::SmartClickSegmenter::Click> clicks;
    std::vector<std::pair<cv::Mat, bool>> strokes;  // the strokes' (and the outline's) regions and signs, in order
    cv::Mat foreground(size, CV_8UC1, cv::Scalar(0)), background(size, CV_8UC1, cv::Scalar(0));
    ObjectClicks result;
    result.reached.assign(ious.size(), maxClicks + 1);
    result.bestRegion = region.clone();
    std::size_t next = 0;
    double bestIoU = 0.0;
    int stalled = 0;  // actions since the IoU last rose by a point
    bool outlined = false;
    for (int n = 1; n <= maxClicks && next < ious.size(); ++n) {
        const Piece missed = largestPiece(object & ~region);
        const Piece excess = largestPiece(region & ~object);
        const bool positive = missed.area >= excess.area;
        const cv::Point at = farthestInterior(positive ? missed.mask : excess.mask);
        if (mode == Mode::Smart) {
            const bool outlineNow = options.polygonAfterStall > 0 && !outlined && stalled >= options.polygonAfterStall;
            // A thin piece gets a stroke along it (Shift+drag takes an excess one back, as the Thin
            // Stroke tool does); anything else a click of the session.
            const Piece& piece = positive ? missed : excess;
            if (outlineNow) {
                auto [outline, vertices] = outlineMaskOf(object, options);
                n += vertices - 1;  // each vertex one action
                strokes.emplace_back(std::move(outline), true);
                outlined = true;
                if (n > maxClicks)
                    break;
            } else if ((positive || options.negativeStrokes) && strokeFits(piece.mask, piece.area, options)) {
                strokes.emplace_back(regionToFull(strokeRegion(image.rgb, piece.mask, options), size), positive);
            } else {
                clicks.push_back({at, positive});
            }
            region = regionOf(clicks, strokes, smart, objectClass, size);
        } else {
            cv::circle(positive ? foreground : background, at, 4, cv::Scalar(255), cv::FILLED);
            region = regionToFull(paint::GrabCutSegmenter::fromStrokes(image.rgb, foreground, background), size);
        }
        if (mode == Mode::Smart && n == 1 && iouOf(region, object) < options.polygonBelowFirstIoU) {
            // A first click (or thin stroke) that missed a simple shape is undone and the shape outlined.
            auto [outline, vertices] = outlineMaskOf(object, options);
            if (vertices <= options.polygonAtMostVertices) {
                clicks.clear();
                strokes.assign(1, {std::move(outline), true});
                n += vertices;
                outlined = true;
                if (n > maxClicks)
                    break;
                region = regionOf(clicks, strokes, smart, objectClass, size);
            }
        }
        const double reachedIoU = iouOf(region, object);
        result.iouAfter.push_back(reachedIoU);
        stalled = reachedIoU >= bestIoU + 0.01 ? 0 : stalled + 1;
        if (reachedIoU > bestIoU) {
            bestIoU = reachedIoU;
            result.bestRegion = region.clone();
        }
        while (next < ious.size() && reachedIoU >= ious[next])
            result.reached[next++] = n;
    }
    if (std::getenv("BENCH_ANNOTATOR_OBJECTS"))  // how close the objects that never got there came
        std::fprintf(stderr, "    best IoU %.3f (boundary %.2f px off; one pixel: %.3f), %zu clicks, %zu strokes\n",
                     bestIoU, meanBoundaryOffset(result.bestRegion, object), onePixelIoU(object), clicks.size(),
                     strokes.size());
    return result;
}

double SimulatedAnnotator::onePixelIoU(const cv::Mat& object)
{
    const cv::Mat cross = cv::getStructuringElement(cv::MORPH_CROSS, {3, 3});
    cv::Mat inward, outward;
    cv::erode(object, inward, cross);
    cv::dilate(object, outward, cross);
    return std::max(iouOf(inward, object), iouOf(outward, object));
}

double SimulatedAnnotator::meanBoundaryOffset(const cv::Mat& region, const cv::Mat& object)
{
    cv::Mat inner;
    cv::erode(object, inner, cv::getStructuringElement(cv::MORPH_CROSS, {3, 3}));  // the image's edge is no outline
    const int outline = cv::countNonZero(object & ~inner);
    return outline > 0 ? double(cv::countNonZero((region > 0) != (object > 0))) / outline : 0.0;
}

}  // namespace segstudio::bench
