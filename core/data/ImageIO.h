#pragma once

#include "run/AtomicFile.h"

#include <filesystem>
#include <opencv2/core.hpp>

namespace segstudio::data {

// Reads a PNG/JPEG/… as 8-bit RGB (CV_8UC3, R first). Throws DataError naming the file when it is
// missing, unreadable or not an image.
cv::Mat readImageRgb(const std::filesystem::path& path);

// Writes an RGB image atomically (format from the extension).
void writeImageRgb(const std::filesystem::path& path, const cv::Mat& rgb, run::Durability durability = run::Durability::Immediate);

}  // namespace segstudio::data
