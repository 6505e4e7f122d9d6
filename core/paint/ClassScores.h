#pragma once

#include <opencv2/core.hpp>

#include <cstdint>

namespace segstudio::paint {

// The prediction cache's class scores, read and written in one place: per pixel and class,
// -ln(probability) in steps of 1/kStepsPerNat nat, one byte each (the engine's Predictor writes
// them with the same step; 255 is 15.9 nats, a probability of about 1e-7).
class ClassScores {
public:
    static constexpr double kStepsPerNat = 16.0;

    // The score of a probability (clamped to 0..255; 0 or less: 255).
    static std::uint8_t fromProbability(double probability);
    // The probability a score stands for.
    static double toProbability(double score, double stepsPerNat = kStepsPerNat);
    // Each pixel's most likely class's probability, CV_32FC1, from scores CV_8UC(classes).
    static cv::Mat bestProbability(const cv::Mat& scores, double stepsPerNat = kStepsPerNat);
    // Each pixel's most likely class (its least score; the first of equals), CV_8UC1.
    static cv::Mat mostLikely(const cv::Mat& scores);
};

}  // namespace segstudio::paint
