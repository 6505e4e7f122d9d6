#pragma once

#include <filesystem>
#include <opencv2/core.hpp>

namespace segstudio::data {
inline namespace labels {

// The width and height of an image file, read from its header when it is a PNG or a JPEG (a few
// hundred bytes, so an import of 20,000 images never decodes one), else by decoding it. Throws
// DataError naming the file when it is missing or its header is not an image's.
cv::Size readImageSize(const std::filesystem::path& path);

}  // namespace labels
}  // namespace segstudio::data
