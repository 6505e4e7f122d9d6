#include "PixelClassifier.h"

#include "ClassScores.h"

#include "data/labels/LabelClass.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

namespace segstudio::paint {

PixelClassifier::PixelClassifier(Options options) : m_options(options) {}

void PixelClassifier::setExamples(const std::string& imageKey, const PixelFeatures& features, const cv::Mat& labels)
{
    CV_Assert(labels.type() == CV_8UC1 && labels.size() == features.imageSize());
    // One example at most per working pixel and class (a thin stroke on a 12-megapixel image
    // still counts, at the pixel the features describe it).
    const std::size_t workingPixels = std::size_t(features.workingSize().area());
    std::map<int, std::vector<int>> rowsOfClass;  // working-size rows
    std::vector<std::vector<bool>> taken(256);  // by class id
    for (int y = 0; y < labels.rows; ++y) {
        const std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        for (int x = 0; x < labels.cols; ++x) {
            if (row[x] == data::kUnlabelled)
                continue;
            std::vector<bool>& seen = taken[row[x]];
            if (seen.empty())
                seen.resize(workingPixels, false);
            const int at = features.rowOf(x, y);
            if (!seen[std::size_t(at)]) {
                seen[std::size_t(at)] = true;
                rowsOfClass[row[x]].push_back(at);
            }
        }
    }
    std::mt19937 random(m_options.seed + unsigned(std::hash<std::string>()(imageKey)));
    Examples examples;
    for (auto& [classId, rows] : rowsOfClass) {
        std::shuffle(rows.begin(), rows.end(), random);
        rows.resize(std::min<std::size_t>(rows.size(), std::size_t(m_options.samplesPerClass)));
        for (const int row : rows) {
            examples.samples.push_back(features.rows().row(row));
            examples.responses.push_back(classId);
        }
    }
    if (examples.samples.empty())
        m_examples.erase(imageKey);
    else
        m_examples[imageKey] = std::move(examples);
}

void PixelClassifier::removeExamples(const std::string& imageKey) { m_examples.erase(imageKey); }

std::size_t PixelClassifier::exampleCount() const
{
    std::size_t count = 0;
    for (const auto& [key, examples] : m_examples)
        count += std::size_t(examples.samples.rows);
    return count;
}

int PixelClassifier::classCount() const
{
    std::set<int> classes;
    for (const auto& [key, examples] : m_examples)
        for (int i = 0; i < examples.responses.rows; ++i)
            classes.insert(examples.responses.at<int>(i));
    return int(classes.size());
}

bool PixelClassifier::train()
{
    m_trained = false;
    if (classCount() < 2)
        return false;
    cv::Mat samples, responses;
    for (const auto& [key, examples] : m_examples) {
        samples.push_back(examples.samples);
        responses.push_back(examples.responses);
    }
    m_forest = cv::ml::RTrees::create();
    m_forest->setMaxDepth(m_options.maxDepth);
    m_forest->setMinSampleCount(2);
    m_forest->setCalculateVarImportance(false);
    m_forest->setActiveVarCount(0);  // sqrt of the features, as a random forest does
    m_forest->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, m_options.trees, 0));
    cv::theRNG().state = m_options.seed;  // (RTrees draws from OpenCV's generator)
    m_trained = m_forest->train(cv::ml::TrainData::create(samples, cv::ml::ROW_SAMPLE, responses));
    return m_trained;
}

std::vector<int> PixelClassifier::classify(const cv::Mat& rows) const
{
    CV_Assert(m_trained && rows.type() == CV_32F);
    cv::Mat answers;
    m_forest->predict(rows, answers);
    std::vector<int> classes(std::size_t(rows.rows));
    for (int i = 0; i < rows.rows; ++i)
        classes[std::size_t(i)] = cvRound(answers.at<float>(i));
    return classes;
}

PixelClassifier::Prediction PixelClassifier::predict(const PixelFeatures& features, int classCount) const
{
    CV_Assert(m_trained && classCount > 0 && classCount <= CV_CN_MAX);
    // Votes: the first row names the classes, each further row counts one sample's trees. (Blocks
    // of rows on both cores were slower: 0.96 s against 0.61 s at 512x512, bench_pixel_classifier.)
    cv::Mat votes;
    m_forest->getVotes(features.rows(), votes, 0);
    const cv::Size working = features.workingSize();
    Prediction out{cv::Mat(working, CV_8UC1), cv::Mat(working, CV_8UC1), cv::Mat(working, CV_8UC1),
                   cv::Mat(working, CV_8UC(classCount), cv::Scalar::all(0))};
    const double trees = std::max(1, int(m_forest->getRoots().size()));
    const std::uint8_t floorScore = ClassScores::fromProbability(0.01);
    const double maxEntropy = std::log(std::max(2, classCount));
    for (int i = 0; i < working.area(); ++i) {
        const int y = i / working.width, x = i % working.width;
        const int* counts = votes.ptr<int>(i + 1);
        const int best = int(std::max_element(counts, counts + votes.cols) - counts);
        out.classes.at<std::uint8_t>(y, x) = std::uint8_t(votes.at<int>(0, best));
        out.confidence.at<std::uint8_t>(y, x) = cv::saturate_cast<std::uint8_t>(255.0 * counts[best] / trees);
        std::uint8_t* scores = out.scores.ptr<std::uint8_t>(y) + std::size_t(x) * std::size_t(classCount);
        std::fill(scores, scores + classCount, floorScore);
        double entropy = 0.0;
        for (int c = 0; c < votes.cols; ++c) {
            const double share = counts[c] / trees;
            const int id = votes.at<int>(0, c);
            if (id >= 0 && id < classCount)
                scores[id] = ClassScores::fromProbability(std::max(share, 0.01));
            if (share > 0)
                entropy -= share * std::log(share);
        }
        out.entropy.at<std::uint8_t>(y, x) = cv::saturate_cast<std::uint8_t>(255.0 * entropy / maxEntropy);
    }
    if (working != features.imageSize()) {
        cv::resize(out.classes, out.classes, features.imageSize(), 0, 0, cv::INTER_NEAREST);
        cv::resize(out.confidence, out.confidence, features.imageSize(), 0, 0, cv::INTER_LINEAR);
        cv::resize(out.entropy, out.entropy, features.imageSize(), 0, 0, cv::INTER_LINEAR);
    }
    return out;
}

}  // namespace segstudio::paint
