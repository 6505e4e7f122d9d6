#pragma once

// Reading CamVid's frames and truth for the labeling benchmarks (SegNet's layout).
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <filesystem>
#include <stdexcept>

namespace segstudio::bench {

inline cv::Mat readRgb(const std::filesystem::path& file)
{
    cv::Mat image = cv::imread(file.string(), cv::IMREAD_COLOR);
    if (image.empty())
        throw std::runtime_error(file.string() + ": cannot read the image");
    cv::cvtColor(image, image, cv::COLOR_BGR2RGB);
    return image;
}

// Class ids 0-10; CamVid's 11 (void) as 255, unlabelled.
inline cv::Mat readTruth(const std::filesystem::path& file)
{
    cv::Mat labels = cv::imread(file.string(), cv::IMREAD_UNCHANGED);
    if (labels.empty())
        throw std::runtime_error(file.string() + ": cannot read the label map");
    labels.setTo(255, labels >= 11);
    return labels;
}

}  // namespace segstudio::bench
