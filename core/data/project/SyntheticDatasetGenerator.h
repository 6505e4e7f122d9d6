#pragma once

#include "Project.h"

#include <cstdint>
#include <filesystem>
#include <opencv2/core.hpp>

namespace segstudio::data {
inline namespace project {

// Street-like scenes with all 11 CamVid classes (sky, buildings, road with pavement, poles, signs,
// fences, trees, cars, pedestrians, bicyclists) drawn as simple textured shapes, with exact labels.
// Deterministic: the same seed gives the same pixels on every run.
class SyntheticDatasetGenerator {
public:
    struct Scene {
        cv::Mat image;   // CV_8UC3 RGB
        cv::Mat labels;  // CV_8UC1 CamVid ids
    };

    explicit SyntheticDatasetGenerator(int height = 360, int width = 480);

    Scene generate(std::uint64_t seed) const;

    // Writes count scenes as PNGs under dir/images and a project dir/<name>.segstudio with the
    // CamVid schema, label maps saved, status Labelled, and the default 60/20/20 split.
    Project writeProject(const std::filesystem::path& dir, std::size_t count, std::uint64_t seed = 1,
                         const std::string& name = "demo") const;

private:
    int m_height;
    int m_width;
};

}  // namespace project
}  // namespace segstudio::data
