#include "PredictionIoU.h"

#include "DataError.h"
#include "LabelClass.h"
#include "LabelMapIO.h"

#include <cmath>
#include <cstdint>

namespace segstudio::data {

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

std::vector<PredictionScore> scorePredictions(const Project& project, const std::filesystem::path& predictionsDir,
                                              const std::vector<std::size_t>& indices)
{
    std::vector<PredictionScore> scores;
    scores.reserve(indices.size());
    for (const std::size_t index : indices) {
        PredictionScore score;
        score.index = index;
        const auto truthFile = project.labelMapPath(index);
        const auto predictionFile = predictionsDir / (project.imagePath(index).stem().string() + ".png");
        try {
            if (std::filesystem::exists(truthFile)) {
                if (!std::filesystem::exists(predictionFile))
                    throw DataError(predictionFile.string(), "no prediction");
                const cv::Mat truth = readLabelMap(truthFile, project.schema());
                const cv::Mat predicted = readLabelMap(predictionFile, project.schema(), truth.size());
                const auto scored = scorePrediction(predicted, truth, project.schema().maxId() + 1);
                score.wrongPixels = scored.wrongPixels();
                if (scored.labelledPixels() > 0)
                    score.iou = scored.meanIoU;
                if (!std::isnan(scored.meanBoundaryF1))
                    score.boundaryF1 = scored.meanBoundaryF1;
            }
        } catch (const DataError& error) {
            score.problem = error.what();
        }
        scores.push_back(std::move(score));
    }
    return scores;
}

}  // namespace segstudio::data
