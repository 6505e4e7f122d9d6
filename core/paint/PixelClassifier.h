#pragma once

#include "PixelFeatures.h"

#include <opencv2/core.hpp>
#include <opencv2/ml.hpp>

#include <map>
#include <string>
#include <vector>

namespace segstudio::paint {

// A random forest over PixelFeatures that learns a new kind of image from the labelled pixels of
// a project (a few strokes or whole maps), as ilastik's pixel classification and Fiji's Trainable
// Weka Segmentation do: for the first minutes with a new kind of image, before any network is
// trained. Each image's labels are sampled (at most samplesPerClass pixels of each class, so a
// large sky does not drown a thin pole) and kept by the image's key, so labelling more of an
// image replaces its samples; train() fits the forest on all of them (OpenCV's ml::RTrees).
// Requirements: not thread-safe; one worker trains and predicts while the GUI waits for none.
class PixelClassifier {
public:
    struct Options {
        int trees = 48;
        int maxDepth = 14;
        int samplesPerClass = 600;  // of each image
        unsigned seed = 1;
    };
    struct Prediction {
        cv::Mat classes;     // CV_8UC1 class ids, at the image's size
        cv::Mat confidence;  // CV_8UC1, the winning class's share of the trees' votes x 255
        cv::Mat entropy;     // CV_8UC1, the votes' entropy over ln(classCount) x 255
        // CV_8UC(classCount) at the working size, -ln(share of votes) x 16 per class (a share
        // floored at 1 %): a network's scores as the prediction cache keeps them, for Smart Click.
        cv::Mat scores;
    };

    PixelClassifier() : PixelClassifier(Options()) {}
    explicit PixelClassifier(Options options);

    // The labelled pixels of one image (labels: class ids at the image's size, 255 unlabelled).
    void setExamples(const std::string& imageKey, const PixelFeatures& features, const cv::Mat& labels);
    void removeExamples(const std::string& imageKey);
    std::size_t exampleCount() const;
    int classCount() const;  // distinct classes among the examples
    // Fits the forest; false (and untrained) with examples of fewer than two classes.
    bool train();
    bool isTrained() const { return m_trained; }
    // classCount: the project's classes (ids 0..classCount-1); requires isTrained().
    Prediction predict(const PixelFeatures& features, int classCount) const;
    // The trees' majority class of each row of features (CV_32F, as PixelFeatures::rows()), for a
    // caller that needs a sample of the pixels only; requires isTrained().
    std::vector<int> classify(const cv::Mat& rows) const;

private:
    struct Examples {
        cv::Mat samples;    // CV_32F rows of features
        cv::Mat responses;  // CV_32S class ids
    };

    Options m_options;
    std::map<std::string, Examples> m_examples;
    cv::Ptr<cv::ml::RTrees> m_forest;
    bool m_trained = false;
};

}  // namespace segstudio::paint
