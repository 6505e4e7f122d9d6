#pragma once

#include "Project.h"

#include <filesystem>
#include <functional>

namespace segstudio::data {
inline namespace project {

struct PackOptions {
    int height = 360;  // every image and label map is brought to this size
    int width = 480;
    bool labelledOnly = true;  // skip entries whose status is Unlabelled
};

// Turns a project's images of one split into a training pack (core/pack): images resized to the
// pack size (area/linear), label maps by nearest neighbour; class pixel statistics go into the
// header so the engine can compute class weights. The pack appears atomically.
class DatasetPacker {
public:
    // Returns the number of records packed; DataError when a split has no usable image.
    static std::size_t pack(const Project& project, Split split, const std::filesystem::path& outFile,
                            const PackOptions& options = {},
                            const std::function<void(std::size_t done, std::size_t total)>& progress = {});
};

}  // namespace project
}  // namespace segstudio::data
