#include "PredictionCorrector.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace segstudio::paint {

PredictionCorrector::PredictionCorrector(Options options)
    : m_options(options), m_classifier(options.forest)
{
    m_options.frames = std::max(1, m_options.frames);
}

PixelFeatures PredictionCorrector::featuresOf(const cv::Mat& rgb, const cv::Mat& scores)
{
    if (scores.empty() || scores.depth() != CV_8U)
        throw std::invalid_argument("PredictionCorrector: the model's scores must be 8-bit, a channel a class");
    PixelFeatures features(rgb);
    features.append(scores);
    return features;
}

void PredictionCorrector::learn(const std::string& key, const cv::Mat& rgb, const cv::Mat& scores,
                                const cv::Mat& labels)
{
    m_classes = std::max(m_classes, scores.channels());
    m_classifier.setExamples(key, featuresOf(rgb, scores), labels);
    m_learnt.erase(std::remove(m_learnt.begin(), m_learnt.end(), key), m_learnt.end());
    m_learnt.push_back(key);
    while (int(m_learnt.size()) > m_options.frames) {
        m_classifier.removeExamples(m_learnt.front());
        m_learnt.pop_front();
    }
    m_classifier.train();
}

cv::Mat PredictionCorrector::classesOf(const cv::Mat& scores, cv::Size size)
{
    cv::Mat classes(scores.size(), CV_8UC1);
    const int n = scores.channels();
    for (int y = 0; y < scores.rows; ++y) {
        const std::uint8_t* s = scores.ptr<std::uint8_t>(y);
        for (int x = 0; x < scores.cols; ++x, s += n)
            classes.at<std::uint8_t>(y, x) = std::uint8_t(std::min_element(s, s + n) - s);
    }
    if (classes.size() != size)
        cv::resize(classes, classes, size, 0, 0, cv::INTER_NEAREST);
    return classes;
}

PixelClassifier::Prediction PredictionCorrector::correct(const cv::Mat& rgb, const cv::Mat& scores) const
{
    if (!isReady())
        throw std::logic_error("PredictionCorrector: nothing learnt yet");
    if (scores.channels() != m_classes)
        throw std::invalid_argument("PredictionCorrector: the scores' classes differ from the learnt ones");
    auto forest = m_classifier.predict(featuresOf(rgb, scores), m_classes);
    if (m_options.regionShare > 0)
        recolourRegions(classesOf(scores, rgb.size()), forest);
    if (forest.scores.empty() || m_options.regionShare > 0)
        forest.scores = scores.clone();
    if (m_options.regionShare > 0) {
        // The smart click follows the corrected classes: in a recoloured region the new class
        // takes the score the model gave its own, and the other way round.
        cv::Mat model = classesOf(scores, scores.size()), corrected;
        cv::resize(forest.classes, corrected, scores.size(), 0, 0, cv::INTER_NEAREST);
        const int n = scores.channels();
        for (int y = 0; y < scores.rows; ++y) {
            std::uint8_t* s = forest.scores.ptr<std::uint8_t>(y);
            for (int x = 0; x < scores.cols; ++x, s += n) {
                const int from = model.at<std::uint8_t>(y, x), to = corrected.at<std::uint8_t>(y, x);
                if (from != to && to < n)
                    std::swap(s[from], s[to]);
            }
        }
    }
    return forest;
}

void PredictionCorrector::recolourRegions(const cv::Mat& modelClasses, PixelClassifier::Prediction& forest) const
{
    // Each connected piece of one class of the model's prediction gets an id...
    cv::Mat regions(modelClasses.size(), CV_32SC1, cv::Scalar(0));
    int regionCount = 0;
    for (int c = 0; c < m_classes; ++c) {
        cv::Mat ids;
        const int n = cv::connectedComponents(modelClasses == c, ids, 8, CV_32S);
        if (n <= 1)
            continue;
        cv::Mat shifted = ids + regionCount - 1;
        shifted.copyTo(regions, ids > 0);
        regionCount += n - 1;
    }
    // ...and the forest's votes over it decide its class.
    std::vector<std::vector<int>> votes(std::size_t(regionCount), std::vector<int>(std::size_t(m_classes), 0));
    std::vector<int> modelClassOf(std::size_t(regionCount), 0);
    for (int y = 0; y < regions.rows; ++y)
        for (int x = 0; x < regions.cols; ++x) {
            const int r = regions.at<int>(y, x), f = forest.classes.at<std::uint8_t>(y, x);
            modelClassOf[std::size_t(r)] = modelClasses.at<std::uint8_t>(y, x);
            if (f < m_classes)
                ++votes[std::size_t(r)][std::size_t(f)];
        }
    const auto count = static_cast<std::size_t>(regionCount);
    std::vector<std::uint8_t> classOf(count), sureness(count);
    for (std::size_t r = 0; r < votes.size(); ++r) {
        const auto& v = votes[r];
        const int total = std::max(1, std::accumulate(v.begin(), v.end(), 0));
        const auto best = std::size_t(std::max_element(v.begin(), v.end()) - v.begin());
        const bool recolour = int(best) != modelClassOf[r] && v[best] >= m_options.regionShare * total;
        const std::size_t chosen = recolour ? best : std::size_t(modelClassOf[r]);
        classOf[r] = std::uint8_t(chosen);
        sureness[r] = cv::saturate_cast<std::uint8_t>(255.0 * v[chosen] / total);
    }
    for (int y = 0; y < regions.rows; ++y)
        for (int x = 0; x < regions.cols; ++x) {
            const auto r = std::size_t(regions.at<int>(y, x));
            forest.classes.at<std::uint8_t>(y, x) = classOf[r];
            forest.confidence.at<std::uint8_t>(y, x) = sureness[r];
        }
}

}  // namespace segstudio::paint
