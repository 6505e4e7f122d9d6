#include "PredictionIoU.h"

#include "DataError.h"
#include "LabelClass.h"
#include "LabelMapIO.h"

#include <array>
#include <cstdint>

namespace segstudio::data {

std::optional<double> meanIoUOfPresentClasses(const cv::Mat& predicted, const cv::Mat& truth)
{
    if (predicted.type() != CV_8UC1 || truth.type() != CV_8UC1)
        throw DataError({}, "IoU needs 8-bit single-channel label maps");
    if (predicted.size() != truth.size())
        throw DataError({}, "prediction is " + std::to_string(predicted.cols) + "x" + std::to_string(predicted.rows)
                                + ", label map " + std::to_string(truth.cols) + "x" + std::to_string(truth.rows));
    std::array<std::uint64_t, 256> truthCount{}, predictedCount{}, both{};
    for (int y = 0; y < truth.rows; ++y) {
        const std::uint8_t* t = truth.ptr<std::uint8_t>(y);
        const std::uint8_t* p = predicted.ptr<std::uint8_t>(y);
        for (int x = 0; x < truth.cols; ++x) {
            if (t[x] == kUnlabelled)
                continue;
            ++truthCount[t[x]];
            ++predictedCount[p[x]];
            both[t[x]] += t[x] == p[x];
        }
    }
    double sum = 0.0;
    int present = 0;
    for (int c = 0; c < 255; ++c) {
        if (truthCount[std::size_t(c)] == 0)
            continue;
        const auto intersection = double(both[std::size_t(c)]);
        sum += intersection / (double(truthCount[std::size_t(c)] + predictedCount[std::size_t(c)]) - intersection);
        ++present;
    }
    if (present == 0)
        return std::nullopt;
    return sum / present;
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
                score.iou = meanIoUOfPresentClasses(predicted, truth);
            }
        } catch (const DataError& error) {
            score.problem = error.what();
        }
        scores.push_back(std::move(score));
    }
    return scores;
}

}  // namespace segstudio::data
