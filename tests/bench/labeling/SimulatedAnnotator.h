#pragma once

#include "paint/PixelClassifier.h"
#include "paint/SmartClickSegmenter.h"
#include "paint/SmartClickSession.h"
#include "paint/SuperpixelMap.h"

#include <opencv2/core.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::bench {

// A person labeling a whole image, replayed with the editor's own tool functions (core/paint)
// against the image's ground truth, by the fixed policy of docs/LABELING.md: at each step, the
// largest connected error region (pixels of one true class whose label differs; void ignored),
// clicked at its interior point farthest from its border (the click simulation of Xu et al. 2016
// and RITM's NoC protocol), with that region's true class. One action = one click, one stroke, one
// box, one polygon vertex, or accepting the prediction (or the labels carried from the frame
// before, issue 51).
class SimulatedAnnotator {
public:
    // Propagate: the image starts from the labels carried from the previous frame of its sequence
    // (label()'s start), then is finished with smart clicks as Smart is.
    // Scribble (issue 62.2): no model; strokes along the largest error regions train the live pixel
    // classifier (paint::PixelClassifier) of the image, whose prediction, with the strokes kept,
    // is the labels after each (accepting it counts one action, once).
    enum class Mode { Superpixel, Polygon, Prediction, Smart, GrabCut, Propagate, Scribble };

    struct Image {
        cv::Mat rgb;        // CV_8UC3
        cv::Mat truth;      // CV_8UC1 class ids, kVoid where nothing counts
        cv::Mat predicted;  // CV_8UC1 class ids (prediction modes)
        cv::Mat scores;     // CV_8UC(classes) (smart mode), the prediction cache's scores
        cv::Mat confidence;  // CV_8UC1 0..255 (propagate mode), the prediction cache's confidence
    };

    // Where the policy clicks next.
    struct Target {
        cv::Point at;
        int truthClass = 0;
        int currentLabel = 0;  // what the labels say there now
        cv::Mat region;        // CV_8UC1 of the image size, 255 inside the error region
        cv::Rect bounds;
        std::int64_t area = 0;
    };

    struct Step {
        int actions = 0;      // cumulative, after this step
        double accuracy = 0;  // pixel accuracy after it, void excluded
        double milliseconds = 0;  // the tool's own time for this step
        int targetClass = -1;  // the true class of the region aimed at
        // The polygon's vertices when the action did not help and the region was traced instead
        // (counted in `actions`); 0 when it helped.
        int traced = 0;
    };

    struct Trace {
        double startAccuracy = 0;
        int startActions = 0;  // accepting the prediction (or the carried labels) counts one
        std::vector<Step> steps;
        double prepareMilliseconds = 0;  // per-image work before the first action (superpixels, smart features)
        // The labels after at most 5, 10 and 20 actions (for mIoU at those budgets).
        std::vector<std::pair<int, cv::Mat>> labelsAtBudgets;
        cv::Mat finalLabels;
        // Actions when the accuracy first reached each of 0.90, 0.95, 0.98; -1 when it never did.
        int actionsTo(double accuracy) const;
    };

    struct Options {
        double target = 0.98;
        int maxActions = 300;
        int superpixelSize = 24;        // the editor's default
        double polygonTolerance = 1.5;  // pixels: how closely a person's vertices follow an outline
        std::vector<int> budgets{5, 10, 20};
        paint::SmartClickSegmenter::Parameters smart;
        // Smart and propagate modes: a target region this thin (its widest inscribed disc of at
        // most this radius, pixels) and long (area at least `thinElongation` x its width squared)
        // gets a stroke along it (paint::StrokeSegmenter), as a person drags along a pole; 0: never.
        double thinRadius = 0.0;
        double thinElongation = 4.0;
        int strokeSlack = 3;  // the stroke's corridor: the region's width plus this (pixels)
        bool negativeStrokes = true;  // NoC: a thin excess is taken back by Shift+stroke (else a click)
        // NoC, smart mode: when this many actions in a row have not raised the object's IoU by
        // a point, the person switches to the polygon tool and outlines the object (its vertices
        // within polygonTolerance of the outline, each vertex one action; once per object);
        // 0: never.
        int polygonAfterStall = 0;
        // NoC, smart mode: when the first action's region (a click's, or a thin object's Thin
        // Stroke's) is below this IoU with the object (whatever IoUs the caller counts to) and the
        // object's outline takes at most `polygonAtMostVertices` vertices (within polygonTolerance),
        // the person undoes it and outlines the object instead (the action still counts, each
        // vertex one action), then goes on clicking; 0: never. Chosen on the tuning sets (issue 61:
        // r06, val15, v80, r06d; docs/LABELING.md).
        double polygonBelowFirstIoU = 0.85;
        int polygonAtMostVertices = 15;
        // Whole images, smart and propagate modes: a click that made the image no better because
        // its region spilled onto right pixels is kept for one negative (Shift) click on the
        // largest piece it spilled onto, as the smart click's session invites, before the person
        // undoes both and traces the region (a variant of the policy, docs/LABELING.md; off: undo
        // at once).
        bool negativeAfterSpill = false;
        int classes = 11;          // the dataset's class count (the scribble mode's classifier)
        int scribbleWidth = 5;     // pixels: the brush a scribble is drawn with, kept inside its region
        // Scribble: the project's labelled images the classifier has learned from already (their
        // examples; none: it starts from this image's strokes alone). With examples it predicts the
        // image before the first stroke, as the live classifier does on the next image.
        std::shared_ptr<const paint::PixelClassifier> scribblePrior;
    };

    static constexpr std::uint8_t kVoid = 255;

    SimulatedAnnotator(Mode mode, Options options);
    static std::optional<Mode> modeNamed(const std::string& name);
    static std::string nameOf(Mode mode);

    // start (Propagate): the labels the image starts from, accepting them one action; empty: none.
    Trace label(const Image& image, const cv::Mat& start = cv::Mat()) const;

    // The policy's next click, or nothing when no error is left.
    static std::optional<Target> nextTarget(const cv::Mat& labels, const cv::Mat& truth);
    // The interior point of a mask farthest from its border (the image's edge counts as border).
    static cv::Point farthestInterior(const cv::Mat& mask);
    // Options::negativeAfterSpill: a Shift+click on the largest piece of right pixels the click
    // just made wrong, in its session; false when the step was no such click (nothing done).
    static bool takeBackSpill(cv::Mat& labels, const cv::Mat& before, const Target& target, const cv::Mat& truth,
                              std::optional<paint::SmartClickSession>& session);
    static double pixelAccuracy(const cv::Mat& labels, const cv::Mat& truth);
    // Intersection over union of two masks (1 when both are empty).
    static double iouOf(const cv::Mat& a, const cv::Mat& b);
    // The radius of a mask's widest inscribed disc (its half-width, for a thin one).
    static double halfWidth(const cv::Mat& mask);
    // Whether a person would stroke along this region rather than click it (Options' rule).
    static bool strokeFits(const cv::Mat& mask, std::int64_t area, const Options& options);
    // The path a person drags along a thin region: from one end to the other along its main axis,
    // through the middle of each stretch of it (image pixels).
    static std::vector<cv::Point> strokeAlong(const cv::Mat& mask);
    // The stroke-click's region for a thin target region (its corridor from the region's width).
    static paint::RegionMask strokeRegion(const cv::Mat& rgb, const cv::Mat& mask, const Options& options);

    // Interactive segmentation of one object (a connected true region): the number of clicks until
    // the tool's region reaches `iou` with it, at most maxClicks (then maxClicks + 1). Clicks go
    // to the largest error of region against object, positive on a miss and negative on excess.
    // Smart: the clicks are the session's; GrabCut: object and background strokes (dots of
    // radius 4, as the editor's stroke mode takes them).
    // options: the stroke rule (thinRadius 0: clicks only). clicksToIoUs gives the clicks to each
    // of several IoUs (ascending) in one run.
    static int clicksToIoU(Mode mode, const Image& image, const cv::Mat& object, int objectClass, double iou,
                           int maxClicks, const paint::SmartClickSegmenter* smart);
    static int clicksToIoU(Mode mode, const Image& image, const cv::Mat& object, int objectClass, double iou,
                           int maxClicks, const paint::SmartClickSegmenter* smart, const Options& options);
    // An object outlined with the polygon tool from its own true outline (Options::polygonTolerance):
    // the outline's IoU with it and its vertices (at least 3): what a careful person's polygon reaches.
    static std::pair<double, int> outlineOf(const cv::Mat& object, const Options& options);
    // The same with intelligent scissors (cv::segmentation::IntelligentScissorsMB, the live wire):
    // from each anchor the wire snaps to the image's edges, and the person places the next anchor
    // where the wire would leave the true outline by more than polygonTolerance. Its IoU and anchors.
    static std::pair<double, int> scissorsOutlineOf(const cv::Mat& rgb, const cv::Mat& object, const Options& options);
    struct ObjectClicks {
        std::vector<int> reached;  // the clicks to each IoU asked for (maxClicks + 1: not reached)
        cv::Mat bestRegion;        // the tool's region at its best IoU
        std::vector<double> iouAfter;  // the IoU after each step (an outline, all its vertices, is one)
    };
    static ObjectClicks clicksToIoUs(Mode mode, const Image& image, const cv::Mat& object, int objectClass,
                                     const std::vector<double>& ious, int maxClicks,
                                     const paint::SmartClickSegmenter* smart, const Options& options);
    // What 90 % asks of the labels: the object's IoU with itself moved one pixel in or out (its
    // outline shifted by a pixel all round; the better of the two). Below 0.9, any tool must follow
    // the hand-drawn outline to within less than a pixel on average.
    static double onePixelIoU(const cv::Mat& object);
    // How far a region's boundary lies from the object's on average: the pixels where they differ
    // over the object's outline length (its pixels with a 4-neighbour outside it).
    static double meanBoundaryOffset(const cv::Mat& region, const cv::Mat& object);

private:
    struct Scribbles;
    // Applies the mode's tool at the target; returns the actions it took.
    int act(cv::Mat& labels, const Target& target, const Image& image, const paint::SuperpixelMap& superpixels,
            const paint::SmartClickSegmenter& smart, std::optional<paint::SmartClickSession>& session,
            Scribbles* scribbles) const;
    int scribble(cv::Mat& labels, const Target& target, Scribbles& scribbles) const;
    int traceWithPolygon(cv::Mat& labels, const Target& target) const;
    static int traceWithPolygonOptions(cv::Mat& labels, const Target& target, const Options& options);
    static std::pair<cv::Mat, int> outlineMaskOf(const cv::Mat& object, const Options& options);
    static cv::Mat regionOf(const std::vector<paint::SmartClickSegmenter::Click>& clicks,
                            const std::vector<std::pair<cv::Mat, bool>>& strokes,
                            const paint::SmartClickSegmenter* smart, int objectClass, cv::Size size);

    Mode m_mode;
    Options m_options;
};

}  // namespace segstudio::bench
