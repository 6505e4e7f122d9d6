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

}  // namespace segstudio::paint
