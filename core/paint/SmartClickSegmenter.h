#pragma once

#include "ClassScores.h"
#include "ClickColourModel.h"
#include "RegionMask.h"

#include <opencv2/core.hpp>

#include <array>

#include <vector>

namespace segstudio::paint {

// The smart click: the region a click means, found from the model's per-pixel class scores and
// the image. For class c, every pixel has a margin s = ln P(c) - ln max_{k != c} P(k). The clicks
// say where the model's threshold is wrong: a positive click raises the margin of the pixels it is
// nearest to until its own pixel is inside by `margin` nats; a negative (Shift) click lowers it
// until its pixel is outside. A graph cut then settles the boundary (the raised margins as unary
// terms, a contrast-sensitive Potts term between neighbours as in GrabCut, the clicked pixels as
// hard constraints), and the region is what is connected to the positive clicks. So a click on a
// patch the model called road but is pavement takes the patch the model was unsure about, up to
// the edges of the image, and stops where the model is sure of something else.
// Work happens at the scores' size (the model's working size, ~0.2 megapixels), which keeps a
// click near 10 ms on a 12-megapixel image; the region is then scaled to the image.
// Requirements: scores CV_8UC(classes) of -ln(probability) x scoreSteps (as the prediction cache
// keeps them), rgb CV_8UC3 at the image's size; construction is the per-image work (run it on a
// worker); region() is const and safe on any thread.
// Guarantees: the region lies inside the image, holds every positive click not also clicked
// negative, and no negative click; empty without a positive click.
class SmartClickSegmenter {
public:
    struct Click {
        cv::Point at;  // image pixel
        bool positive = true;
    };
    struct Parameters {
        double margin = 0.7;         // nats a clicked pixel is moved past the threshold
        double smoothness = 0.5;     // weight of the Potts term, in nats, at zero colour contrast
        // The Potts weight around negative clicks: a negative click says the region's boundary is
        // wrong there, and there the image's edges should decide rather than the model's scores;
        // it fades with the distance as the clicks' shift does, so the region away from the
        // corrections keeps the shape the model gave it (docs/LABELING.md).
        double refiningSmoothness = 4.0;
        double scoreSteps = ClassScores::kStepsPerNat;  // the scores' quantisation: steps per nat
        // How far a click's shift carries, in pixels of the scores' size: it fades as
        // exp(-d^2 / (2 reach^2)) with the distance d, so a click where the model was sure of
        // another class does not flood everything it was equally sure of; 0: no fading.
        double reach = 40.0;
        // From this many clicks on (a session's clicks on one object), the image has its say too:
        // the colours under the positive clicks against those under the negative ones and the
        // image's (ClickColourModel) join the unary term, weighted by 1 - trust, trust being the
        // share of the clicks the model agreed with (clicks that contradict it say it is wrong
        // here), and by how unsure the model is at the pixel (a sure pixel counts half).
        int colourFromClick = 2;
        double colourWeight = 1.0;  // nats of unary per nat of colour log-ratio, where the model is not trusted
        int colourRadius = 4;       // the disc under each click sampled for the colour model (work pixels)
        double colourLimit = 3.0;   // the colour log-ratio is clamped to +- this
        // Holes of the region (pieces it encloses that the cut left out: the sky between a tree's
        // branches, a car's window) of at most this share of its area are joined to it, none that
        // holds a negative click; 0: none. Chosen on the tuning sets (docs/LABELING.md, "Holes");
        // any share from 0.05 to 1 gave the same: the holes a click leaves are small.
        double holesUpTo = 0.05;
    };

    SmartClickSegmenter() = default;
    SmartClickSegmenter(const cv::Mat& scores, const cv::Mat& rgb);
    SmartClickSegmenter(const cv::Mat& scores, const cv::Mat& rgb, Parameters parameters);

    bool empty() const { return m_scores.empty(); }
    int classes() const { return m_scores.empty() ? 0 : m_scores.channels(); }
    cv::Size imageSize() const { return m_imageSize; }
    const Parameters& parameters() const { return m_parameters; }

    // labels (CV_8UC1 of the image's size, optional): the map being edited. The region then stays
    // within the labels found under the positive clicks: a click on a patch labelled tree that is
    // building takes from that patch, not from the sky beside it the model was equally unsure of.
    RegionMask region(const std::vector<Click>& clicks, int classId, const cv::Mat& labels = cv::Mat()) const;
    // The class the model finds most likely at an image pixel (-1 outside the image).
    int likelyClassAt(cv::Point imagePixel) const;

private:
    cv::Point toWork(cv::Point imagePixel) const;
    cv::Mat marginsOf(int classId) const;  // CV_32FC1 at the work size, nats
    double trustOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at, const cv::Mat& margins) const;
    cv::Mat unaryOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at, int classId) const;
    cv::Mat biasOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at, const cv::Mat& margins) const;
    cv::Mat smoothnessOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at) const;
    cv::Mat cut(const cv::Mat& unary, const cv::Rect& roi, const std::vector<Click>& clicks,
                const std::vector<cv::Point>& at, const cv::Mat& smoothness) const;
    RegionMask toImage(const cv::Mat& workMask) const;
    std::array<bool, 256> confineToClickedLabels(cv::Mat& unary, const std::vector<Click>& clicks, const cv::Mat& labels) const;
    static cv::Rect reachOfClicks(const cv::Mat& unary, const std::vector<Click>& clicks, const std::vector<cv::Point>& at,
                                  const cv::Mat& smoothness);
    static cv::Mat connectedToPositiveClicks(const cv::Mat& inside, const cv::Rect& roi, const std::vector<Click>& clicks,
                                             const std::vector<cv::Point>& at);
    RegionMask withClicksHeld(RegionMask region, const std::vector<Click>& clicks) const;
    void fillHoles(cv::Mat& workMask, const std::vector<Click>& clicks, const std::vector<cv::Point>& at) const;

    cv::Mat m_scores;   // CV_8UC(classes), work size
    cv::Mat m_right;    // CV_32FC1: Potts weight per nat of smoothness between (x, y) and (x + 1, y)
    cv::Mat m_down;     // CV_32FC1: between (x, y) and (x, y + 1)
    cv::Mat m_confidence;  // CV_32FC1: the model's probability of its most likely class
    ClickColourModel m_colours;
    cv::Size m_imageSize;
    Parameters m_parameters;
};

}  // namespace segstudio::paint
