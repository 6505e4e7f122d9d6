#include "PredictionIoU.h"

#include "data/labels/DataError.h"
#include "data/labels/LabelClass.h"
#include "data/labels/LabelMapIO.h"

#include <cmath>
#include <cstdint>

namespace segstudio::data {
inline namespace project {

metrics::ImageScore scorePrediction(const cv::Mat& predicted, const cv::Mat& truth, int classes)
{
    if (predicted.type() != CV_8UC1 || truth.type() != CV_8UC1)
        throw DataError({}, "scoring needs 8-bit single-channel label maps");
    if (predicted.size() != truth.size())
        throw DataError({}, "prediction is " + std::to_string(predicted.cols) + "x" + std::to_string(predicted.rows)
                                + ", label map " + std::to_string(truth.cols) + "x" + std::to_string(truth.rows));
    const cv::Mat p = predicted.isContinuous() ? predicted : predicted.clone();
    const cv::Mat t = truth.isContinuous() ? truth : truth.clone();
    try {
        return metrics::scoreImage(t.ptr<std::uint8_t>(), p.ptr<std::uint8_t>(), t.cols, t.rows, classes);
    } catch (const std::invalid_argument& error) {
        throw DataError({}, error.what());
    }
}

namespace {

// Mean of entropy/255 over the pixels where truth is unlabelled; over the whole image when there
// is no truth or every pixel is labelled (a fully labelled project still shows how sure the
// model is of each image, for review).
double meanUncertainty(const cv::Mat& entropy, const cv::Mat& truth)
{
    const cv::Mat open = truth.empty() ? cv::Mat() : (truth == kUnlabelled);
    const int pixels = open.empty() ? 0 : cv::countNonZero(open);
    if (pixels == 0)
        return cv::mean(entropy)[0] / 255.0;
    return cv::sum(entropy & open)[0] / 255.0 / pixels;  // open is 255 where counted: the AND keeps entropy there
}

double suspectShare(const PredictionCache::Entry& prediction, const cv::Mat& truth, int suspectConfidence)
{
    const cv::Mat labelled = truth != kUnlabelled;
    const int labelledPixels = cv::countNonZero(labelled);
    if (labelledPixels == 0)
        return 0.0;
    const cv::Mat suspect = labelled & (prediction.classes != truth) & (prediction.confidence >= suspectConfidence);
    return double(cv::countNonZero(suspect)) / labelledPixels;
}

}  // namespace

std::vector<PredictionScore> scorePredictions(const Project& project, const PredictionCache& cache,
                                              const std::vector<std::size_t>& indices, const ScoringOptions& options)
{
    std::vector<PredictionScore> scores;
    scores.reserve(indices.size());
    const bool current = cache.isCurrent();
    for (const std::size_t index : indices) {
        PredictionScore score;
        score.index = index;
        const auto truthFile = project.labelMapPath(index);
        const std::string stem = PredictionCache::keyOf(project, index);
        try {
            const bool hasTruth = std::filesystem::exists(truthFile);
            const auto prediction = current ? cache.load(stem, project.schema(), {}) : std::nullopt;
            if (!prediction) {
                if (hasTruth)
                    throw DataError(cache.classesFile(stem).string(), "no prediction");
                scores.push_back(std::move(score));
                continue;
            }
            const cv::Mat truth = hasTruth ? readLabelMap(truthFile, project.schema(), prediction->classes.size()) : cv::Mat();
            score.uncertainty = meanUncertainty(prediction->entropy, truth);
            if (hasTruth) {
                const auto scored = scorePrediction(prediction->classes, truth, project.schema().maxId() + 1);
                score.wrongPixels = scored.wrongPixels();
                if (scored.labelledPixels() > 0) {
                    score.iou = scored.meanIoU;
                    score.confusion = scored.confusion;
                }
                if (!std::isnan(scored.meanBoundaryF1))
                    score.boundaryF1 = scored.meanBoundaryF1;
                score.suspectFraction = suspectShare(*prediction, truth, options.suspectConfidence);
            }
        } catch (const DataError& error) {
            score.problem = error.what();
        }
        scores.push_back(std::move(score));
    }
    return scores;
}

std::optional<metrics::SegmentationMetrics> datasetMetrics(const std::vector<PredictionScore>& scores,
                                                           const std::function<bool(std::size_t index)>& include)
{
    std::optional<metrics::ConfusionCounts> total;
    for (const PredictionScore& score : scores) {
        if (!score.confusion || !include(score.index))
            continue;
        if (!total)
            total.emplace(score.confusion->classes());
        total->add(*score.confusion);
    }
    if (!total)
        return std::nullopt;
    return total->metrics();
}

}  // namespace project
}  // namespace segstudio::data
