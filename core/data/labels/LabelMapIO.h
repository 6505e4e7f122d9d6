#pragma once

#include "run/AtomicFile.h"
#include "ClassSchema.h"

#include <filesystem>
#include <map>
#include <opencv2/core.hpp>

namespace segstudio::data {
inline namespace labels {

// Label maps are CV_8UC1: value = class id, 255 = unlabelled. On disk: an 8-bit palette PNG whose
// palette holds the class colours, so any image viewer shows them.

// Reads an index PNG (grey or palette: the indices are taken, not the colours). Values not in the
// schema and not 255 are an error naming the file and the value. voidValue, when set, is a value
// that means "unlabelled" in this dataset (CamVid's 11) and is mapped to 255. expectedSize, when
// not empty, must match.
cv::Mat readLabelMap(const std::filesystem::path& path, const ClassSchema& schema, cv::Size expectedSize = {},
                     int voidValue = -1);

// Writes atomically, with the schema's palette embedded.
void writeLabelMap(const std::filesystem::path& path, const cv::Mat& labels, const ClassSchema& schema,
                   run::Durability durability = run::Durability::Immediate);

// Reads an RGB colour-coded mask (MATLAB pixelLabelDatastore style): every colour must be in the
// table (colour -> class id, or 255 for void), else DataError names the file, the colour and one
// pixel that has it.
cv::Mat readColorMask(const std::filesystem::path& path, const std::map<std::uint32_t, std::uint8_t>& colorToId,
                      cv::Size expectedSize = {});
std::map<std::uint32_t, std::uint8_t> colorTable(const ClassSchema& schema);  // class colours -> ids
std::uint32_t packRgb(const Rgb& color);

// Colour rendering of a label map (unlabelled = black) as RGB, for export and previews.
cv::Mat colorize(const cv::Mat& labels, const ClassSchema& schema);

}  // namespace labels
}  // namespace segstudio::data
