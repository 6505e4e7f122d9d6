#include "PixelClassifier.h"

#include "data/labels/LabelClass.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

namespace segstudio::paint {

PixelClassifier::PixelClassifier(Options options) : m_options(options) {}

void PixelClassifier::setExamples(const std::string& imageKey, const PixelFeatures& features, const cv::Mat& labels)
{
    CV_Assert(labels.type() == CV_8UC1 && labels.size() == features.imageSize());
    std::map<int, std::vector<int>> rowsOfClass;  // working-size rows, each taken once
    std::set<int> seen;
    for (int y = 0; y < labels.rows; ++y) {
        const std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        for (int x = 0; x < labels.cols; ++x)
            if (row[x] != data::kUnlabelled && seen.insert(features.rowOf(x, y) * 256 + row[x]).second)
                rowsOfClass[row[x]].push_back(features.rowOf(x, y));
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

PixelClassifier::Prediction PixelClassifier::predict(const PixelFeatures& features) const
{
    CV_Assert(m_trained);
    // Votes: the first row names the classes, each further row counts one sample's trees. (Blocks
    // of rows on both cores were slower: 0.96 s against 0.58 s at 512x512, bench_pixel_classifier.)
    cv::Mat votes;
    m_forest->getVotes(features.rows(), votes, 0);
    const cv::Size working = features.workingSize();
    cv::Mat classes(working, CV_8UC1), confidence(working, CV_8UC1);
    const int trees = std::max(1, int(m_forest->getRoots().size()));
    for (int i = 0; i < working.area(); ++i) {
        const int* counts = votes.ptr<int>(i + 1);
        const int best = int(std::max_element(counts, counts + votes.cols) - counts);
        classes.at<std::uint8_t>(i / working.width, i % working.width) = std::uint8_t(votes.at<int>(0, best));
        confidence.at<std::uint8_t>(i / working.width, i % working.width) = cv::saturate_cast<std::uint8_t>(255.0 * counts[best] / trees);
    }
    if (working != features.imageSize()) {
        cv::resize(classes, classes, features.imageSize(), 0, 0, cv::INTER_NEAREST);
        cv::resize(confidence, confidence, features.imageSize(), 0, 0, cv::INTER_LINEAR);
    }
    return {classes, confidence};
}

}  // namespace segstudio::paint
