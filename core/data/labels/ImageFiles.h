#pragma once

#include <filesystem>
#include <vector>

namespace segstudio::data {
inline namespace labels {

// png, jpg/jpeg, bmp, tif/tiff, any case.
bool isImageFile(const std::filesystem::path& path);

// The image files of a folder (and its sub-folders when recursive), sorted by path.
std::vector<std::filesystem::path> imageFilesIn(const std::filesystem::path& dir, bool recursive);

}  // namespace labels
}  // namespace segstudio::data
