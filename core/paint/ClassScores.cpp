#include "ClassScores.h"

#include <algorithm>
#include <cmath>

namespace segstudio::paint {

std::uint8_t ClassScores::fromProbability(double probability)
{
    if (!(probability > 0.0))  // -ln 0 is infinite, and saturate_cast does not take infinity
        return 255;
    return cv::saturate_cast<std::uint8_t>(-std::log(probability) * kStepsPerNat);
}

double ClassScores::toProbability(double score, double stepsPerNat)
{
    return std::exp(-score / stepsPerNat);
}

cv::Mat ClassScores::bestProbability(const cv::Mat& scores, double stepsPerNat)
{
    const int n = scores.channels();
    cv::Mat best(scores.size(), CV_32FC1);
    for (int y = 0; y < scores.rows; ++y) {
        const std::uint8_t* score = scores.ptr<std::uint8_t>(y);
        auto* out = best.ptr<float>(y);
        for (int x = 0; x < scores.cols; ++x, score += n)
            out[x] = float(toProbability(*std::min_element(score, score + n), stepsPerNat));
    }
    return best;
}

cv::Mat ClassScores::mostLikely(const cv::Mat& scores)
{
    const int n = scores.channels();
    cv::Mat classes(scores.size(), CV_8UC1);
    for (int y = 0; y < scores.rows; ++y) {
        const std::uint8_t* score = scores.ptr<std::uint8_t>(y);
        auto* out = classes.ptr<std::uint8_t>(y);
        for (int x = 0; x < scores.cols; ++x, score += n)
            out[x] = std::uint8_t(std::min_element(score, score + n) - score);
    }
    return classes;
}

}  // namespace segstudio::paint
