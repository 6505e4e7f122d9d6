#include "PredictionCorrector.h"

#include "ClassScores.h"

#include "data/labels/LabelClass.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace segstudio::paint {

namespace {

// The forest is asked at every second pixel each way: a region's majority needs no more, and the
// trees' votes are most of the time a correction takes (a 12-megapixel frame is described at 1024 px).
constexpr int kVoteStep = 2;

// Each connected piece (8-neighbours) of one class gets an id of its own: 0..count-1.
cv::Mat regionsOf(const cv::Mat& classes, int classCount, int& count)
{
    std::array<bool, 256> present {};
    for (int y = 0; y < classes.rows; ++y)
        for (const std::uint8_t* c = classes.ptr<std::uint8_t>(y); c != classes.ptr<std::uint8_t>(y) + classes.cols; ++c)
            present[*c] = true;
    cv::Mat regions(classes.size(), CV_32SC1, cv::Scalar(0));
    count = 0;
    for (int c = 0; c < classCount; ++c) {
        if (!present[std::size_t(c)])
            continue;
        cv::Mat ids;
        const int n = cv::connectedComponents(classes == c, ids, 8, CV_32S);
        cv::Mat shifted = ids + (count - 1);
        shifted.copyTo(regions, ids > 0);
        count += n - 1;
    }
    return regions;
}

// The image's pixel features with the model's scores as the last columns (autocontext).
PixelFeatures featuresOf(const cv::Mat& rgb, const cv::Mat& scores)
{
    if (scores.empty() || scores.depth() != CV_8U)
        throw std::invalid_argument("PredictionCorrector: the model's scores must be 8-bit, a channel a class");
    PixelFeatures features(rgb);
    features.append(scores);
    return features;
}

// The model's classes at `size`: the least score of each pixel (the cache's -ln p).
cv::Mat classesOf(const cv::Mat& scores, cv::Size size)
{
    cv::Mat classes = ClassScores::mostLikely(scores);
    if (classes.size() != size)
        cv::resize(classes, classes, size, 0, 0, cv::INTER_NEAREST);
    return classes;
}

// How sure the model is of its class, as the cache's confidence: its probability x 255.
cv::Mat confidenceOf(const cv::Mat& scores, cv::Size size)
{
    cv::Mat confidence;
    ClassScores::bestProbability(scores).convertTo(confidence, CV_8UC1, 255.0);
    if (confidence.size() != size)
        cv::resize(confidence, confidence, size, 0, 0, cv::INTER_LINEAR);
    return confidence;
}

}  // namespace

PredictionCorrector::PredictionCorrector(Options options)
    : m_options(options), m_classifier(options.forest)
{
    m_options.frames = std::max(1, m_options.frames);
}

void PredictionCorrector::learn(const std::string& key, const cv::Mat& rgb, const cv::Mat& scores,
                                const cv::Mat& labels)
{
    const PixelFeatures features = featuresOf(rgb, scores);
    if (scores.channels() != m_classes) {  // another model: what was learnt of the last one goes
        for (const std::string& learnt : m_learnt)
            m_classifier.removeExamples(learnt);
        m_learnt.clear();
        m_classes = scores.channels();
    }
    // A class the model has no score for cannot be one it confuses: such pixels teach nothing.
    cv::Mat known = labels.clone();
    known.setTo(data::kUnlabelled, labels >= m_classes);
    m_classifier.setExamples(key, features, known);
    m_learnt.erase(std::remove(m_learnt.begin(), m_learnt.end(), key), m_learnt.end());
    m_learnt.push_back(key);
    while (int(m_learnt.size()) > m_options.frames) {
        m_classifier.removeExamples(m_learnt.front());
        m_learnt.pop_front();
    }
    m_classifier.train();
}

PixelClassifier::Prediction PredictionCorrector::correct(const cv::Mat& rgb, const cv::Mat& scores) const
{
    if (!isReady())
        throw std::logic_error("PredictionCorrector: nothing learnt yet");
    if (scores.channels() != m_classes)
        throw std::invalid_argument("PredictionCorrector: the scores' classes differ from the learnt ones");
    const PixelFeatures features = featuresOf(rgb, scores);
    if (m_options.regionShare <= 0)
        return m_classifier.predict(features, m_classes);
    return byRegion(features, scores);
}

std::vector<std::vector<int>> PredictionCorrector::votesOf(const PixelFeatures& features, const cv::Mat& regions,
                                                           int regionCount) const
{
    const cv::Size working = features.workingSize();
    std::vector<cv::Point> sampled;
    for (int y = kVoteStep / 2; y < working.height; y += kVoteStep)
        for (int x = kVoteStep / 2; x < working.width; x += kVoteStep)
            sampled.emplace_back(x, y);
    cv::Mat rows(int(sampled.size()), features.columns(), CV_32F);
    for (std::size_t i = 0; i < sampled.size(); ++i)
        features.rows().row(sampled[i].y * working.width + sampled[i].x).copyTo(rows.row(int(i)));
    const std::vector<int> forest = m_classifier.classify(rows);
    // The forest only ever learnt classes below m_classes (learn() keeps to the model's).
    std::vector<std::vector<int>> votes(std::size_t(regionCount), std::vector<int>(std::size_t(m_classes), 0));
    for (std::size_t i = 0; i < sampled.size(); ++i)
        if (forest[i] >= 0 && forest[i] < m_classes)
            ++votes[std::size_t(regions.at<int>(sampled[i]))][std::size_t(forest[i])];
    return votes;
}

PixelClassifier::Prediction PredictionCorrector::byRegion(const PixelFeatures& features, const cv::Mat& scores) const
{
    const cv::Size working = features.workingSize();
    const cv::Mat model = classesOf(scores, working);
    int regionCount = 0;
    const cv::Mat regions = regionsOf(model, m_classes, regionCount);
    const auto votes = votesOf(features, regions, regionCount);
    std::vector<int> modelClassOf(votes.size(), 0);
    for (int y = 0; y < working.height; ++y)
        for (int x = 0; x < working.width; ++x)
            modelClassOf[std::size_t(regions.at<int>(y, x))] = model.at<std::uint8_t>(y, x);
    // A region keeps the model's class and confidence unless the share asks for another class,
    // whose confidence is then the share of the votes for it.
    constexpr int kKept = -1;
    std::vector<int> recolouredTo(votes.size(), kKept);
    std::vector<std::uint8_t> shareOf(votes.size(), 0);
    for (std::size_t r = 0; r < votes.size(); ++r) {
        const auto& v = votes[r];
        const int total = std::accumulate(v.begin(), v.end(), 0);
        const auto best = std::size_t(std::max_element(v.begin(), v.end()) - v.begin());
        if (total > 0 && int(best) != modelClassOf[r] && v[best] >= m_options.regionShare * total) {
            recolouredTo[r] = int(best);
            shareOf[r] = cv::saturate_cast<std::uint8_t>(255.0 * v[best] / total);
        }
    }
    PixelClassifier::Prediction out{model.clone(), confidenceOf(scores, working), {}, {}};
    for (int y = 0; y < working.height; ++y)
        for (int x = 0; x < working.width; ++x) {
            const auto r = std::size_t(regions.at<int>(y, x));
            if (recolouredTo[r] == kKept)
                continue;
            out.classes.at<std::uint8_t>(y, x) = std::uint8_t(recolouredTo[r]);
            out.confidence.at<std::uint8_t>(y, x) = shareOf[r];
        }
    if (working != features.imageSize()) {
        cv::resize(out.classes, out.classes, features.imageSize(), 0, 0, cv::INTER_NEAREST);
        cv::resize(out.confidence, out.confidence, features.imageSize(), 0, 0, cv::INTER_LINEAR);
    }
    return out;
}

}  // namespace segstudio::paint
