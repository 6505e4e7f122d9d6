#pragma once

#include "PixelClassifier.h"

#include <opencv2/core.hpp>

#include <deque>
#include <string>
#include <vector>

namespace segstudio::paint {

// The model's prediction of a frame, corrected by what the user labelled on the frames before it
// (issue 61.2). On a sequence the model never saw (another city, dusk) it is wrong in the same way
// from one frame to the next: a random forest learns, from each labelled frame's pixels, the true
// class from the model's scores there together with the pixel's colour and texture (PixelFeatures):
// ilastik's autocontext, with the network as the first stage. The corrected prediction fills what
// the optical flow cannot carry a second later (the smart click stays on the model's own scores:
// following the corrected ones cost more clicks, docs/LABELING.md).
// Requirements: not thread-safe (one worker learns and corrects); scores as the prediction cache
//   keeps them (CV_8UC(classes), -ln p x 16, at the model's size, any size of the image's aspect).
// Guarantees: learns from the last `frames` labelled frames only (the nearest ones are the most
//   alike), and only of the model's classes (labels without a score channel teach nothing; scores
//   of another class count forget what was learnt); correct() needs isReady(): at least two
//   classes among the labels learnt.
class PredictionCorrector {
public:
    struct Options {
        int frames = 1;
        // The forest's answer pixel by pixel is speckled, and each speckle is a click more: it
        // recolours a whole region of the model's prediction (a connected piece of one class) when
        // at least this share of its pixels votes for one other class. 0: the forest's pixels as
        // they are.
        double regionShare = 0.5;
        PixelClassifier::Options forest;
    };

    PredictionCorrector() : PredictionCorrector(Options()) {}
    explicit PredictionCorrector(Options options);

    // A labelled frame: its image (CV_8UC3 RGB), the model's scores of it and its labels (CV_8UC1,
    // class ids, data::kUnlabelled where none). Learning the same key again replaces it.
    void learn(const std::string& key, const cv::Mat& rgb, const cv::Mat& scores, const cv::Mat& labels);
    bool isReady() const { return m_classifier.isTrained(); }
    // The open frame's prediction, corrected: classes and confidence at the image's size (by region:
    // the model's own confidence where it keeps its class, the share of the votes where a region
    // was recoloured); pixel by pixel, PixelClassifier's prediction with its entropy and scores.
    PixelClassifier::Prediction correct(const cv::Mat& rgb, const cv::Mat& scores) const;

private:
    // The model's regions, each recoloured by the forest's majority over a sample of its pixels.
    PixelClassifier::Prediction byRegion(const PixelFeatures& features, const cv::Mat& scores) const;
    // The forest's votes in each region (regions: ids at the working size), a class a column.
    std::vector<std::vector<int>> votesOf(const PixelFeatures& features, const cv::Mat& regions,
                                          int regionCount) const;

    Options m_options;
    PixelClassifier m_classifier;
    std::deque<std::string> m_learnt;  // keys, oldest first
    int m_classes = 0;
};

}  // namespace segstudio::paint
