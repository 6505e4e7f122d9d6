#pragma once

#include "run/AtomicFile.h"

#include <filesystem>
#include <opencv2/core.hpp>

namespace segstudio::data {
inline namespace labels {

// Reads a PNG/JPEG/… as 8-bit RGB (CV_8UC3, R first). Throws DataError naming the file when it is
// missing, unreadable or not an image.
cv::Mat readImageRgb(const std::filesystem::path& path);

// Writes an RGB image atomically (format from the extension).
void writeImageRgb(const std::filesystem::path& path, const cv::Mat& rgb, run::Durability durability = run::Durability::Immediate);

// An 8-bit single-channel map (confidence, entropy) as a grey PNG, and back. readImageGray throws
// DataError naming the file when it is missing, unreadable, not single-channel 8-bit, or not of
// expectedSize (when given).
void writeImageGray(const std::filesystem::path& path, const cv::Mat& gray, run::Durability durability = run::Durability::Immediate);
cv::Mat readImageGray(const std::filesystem::path& path, cv::Size expectedSize = {});

}  // namespace labels
}  // namespace segstudio::data
