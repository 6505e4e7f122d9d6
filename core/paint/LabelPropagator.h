#pragma once

#include "DenseFlow.h"
#include "WriteGuard.h"

#include <opencv2/core.hpp>

#include <cstdint>

namespace segstudio::paint {

// Labels that travel along a sequence (issue 51): the open frame takes the labels of the frame
// before it, where the optical flow can be trusted. Each pixel of the open frame looks up, at full
// size, the nearest source pixel the backward flow says it came from (labels are categories:
// never blended), if the flow there passes the forward-backward check (DenseFlow::consistent) and
// is steady (no motion boundary near; between frames that moved little, with a prediction to
// fill otherwise, a boundary's blend of a few pixels is taken too), or if every label its doubt
// could mean is the same. Any other pixel (occluded, come into view, matched wrongly, at a moving
// object's edge) and a pixel from outside the source is left unlabelled rather than guessed; given
// the model's prediction of the open frame, such a pixel takes the predicted class (fillAbove), a
// carried label that a very sure prediction contradicts gives way to it (modelOverrulesAbove), and
// one that a sure prediction contradicts is marked for review. What the user left unlabelled in the source stays
// unlabelled, prediction or not.
// Requirements: frames CV_8UC3 RGB (as data::readImageRgb reads them; BGR gives nearly the same
//   flow, as long as both frames agree) or CV_8UC1 grey, of one size; label maps CV_8UC1 of that
//   size with data::kUnlabelled (255) for unlabelled. propagate() is const and safe on any thread;
//   it changes no OpenCV setting (DIS uses cv::getNumThreads() threads).
// Guarantees: the open frame's own labels are never replaced where the guard forbids it, never
//   erased (a pixel that carries nothing keeps what it had), and never replaced by the model; the
//   same inputs give the same result at the same cv::getNumThreads().
class LabelPropagator {
public:
    struct Parameters {
        DenseFlow::Parameters flow;
        double consistencyAlpha = 0.01;  // Sundaram et al. 2010: |wb + wf|^2 < alpha (|wb|^2 + |wf|^2) + beta
        double consistencyBeta = 0.5;  // squared pixels at the flow's working size
        // How much a pixel's flow may vary within 8 working pixels (DIS's reach) and still be
        // taken as it is. More means a motion boundary is near, where DIS blends the two motions
        // and the forward and backward flows can agree on a wrong answer.
        double steadySpread = 1.0;
        // Frames a fraction of a second apart: when the frame's median motion is at most
        // `smallMotion` image pixels and a prediction would fill the pixel otherwise, a flow this
        // unsteady is still taken. There a motion boundary's blend costs a pixel or two, less than
        // the fill gets wrong; a second apart it carries wrong labels (issue 61, chosen on the
        // tuning sequences: CamVid moved 3.5-6.3 px between frames at 15 Hz, 24-47 px at 1 Hz).
        double smallMotion = 12.0;
        double steadySpreadAtSmallMotion = 4.0;
        // A pixel that fails the check, or whose flow is not steady, still takes its label when
        // every source pixel within its doubt (error + spread) of where the flow points has that
        // label: the doubt cannot change the answer (a plain road or sky, where DIS wanders and
        // the labels do not). false: such pixels stay unlabelled.
        bool trustUniformLabels = true;
        // 0..255: a carried label the prediction contradicts this surely is marked for review.
        int minConfidence = 128;
        // 0..255: where the flow failed, the prediction fills the pixel when at least this sure.
        // Issue 61.2: leaving such pixels unlabelled (the former 128) scattered small holes over
        // keyframes a second apart, each a click more; filling them all gave the start the model's
        // accuracy there (chosen on sequences no figure is reported on, docs/LABELING.md).
        int fillAbove = 0;
        // Where a carried label and the prediction disagree, the prediction takes the pixel when it
        // is at least this sure (0..255; 256: never). Tried for keyframes a second apart, where the
        // flow carries wrong labels; on the tuning sequences it saved nothing there (200: 43.5
        // actions a frame against 41 for never) and cost at 15 Hz (15 against 7.5), so it is off.
        int modelOverrulesAbove = 256;
        // Where the flow failed, a pixel takes the label most of its superpixel's carried pixels
        // have, when at least this share (0..1) of that superpixel was carried (the open frame's
        // SLIC superpixels of 24 px: its colours bound where a carried region goes on); 0: never.
        double superpixelVote = 0.0;
    };

    // The model's prediction of the open frame (optional): class ids, and how sure it is as
    // CV_8UC1 0..255 (data::PredictionCache's confidence) or CV_32FC1 0..1.
    struct Prediction {
        cv::Mat classes;
        cv::Mat confidence;
    };

    struct Result {
        cv::Mat labels;  // CV_8UC1: the open frame's labels with the carried and filled ones written in
        cv::Mat review;  // CV_8UC1: 255 where a carried label and a sure prediction disagree
        std::int64_t carried = 0;  // pixels that took a label from the source
        std::int64_t unlabelled = 0;  // pixels unlabelled afterwards
        std::int64_t filledByModel = 0;  // pixels the flow could not carry that took the prediction
        std::int64_t disagree = 0;  // pixels of review
        std::int64_t overruled = 0;  // carried labels the sure prediction replaced
    };

    LabelPropagator() = default;
    explicit LabelPropagator(Parameters parameters) : m_parameters(parameters) { }

    const Parameters& parameters() const { return m_parameters; }

    // How far the frame moved: its median motion in image pixels (the backward flow sampled at
    // every 4th working pixel), what Parameters::smallMotion is compared with.
    static double medianMotion(const DenseFlow& flow);

    // source: the labelled frame and its labels; target: the open frame and its labels so far
    // (empty: none yet). Throws std::invalid_argument when the sizes or types do not fit.
    Result propagate(const cv::Mat& sourceImage, const cv::Mat& sourceLabels, const cv::Mat& targetImage,
                     const cv::Mat& targetLabels = cv::Mat(), const WriteGuard& guard = WriteGuard(),
                     const Prediction& prediction = Prediction()) const;

private:
    Parameters m_parameters;
};

}  // namespace segstudio::paint
