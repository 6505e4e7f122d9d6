#pragma once

#include <opencv2/core.hpp>

#include <cstddef>

namespace segstudio::data {
inline namespace project { class Project; }

inline namespace project {
// The size a project's images are packed at for training when the user chooses none: their most
// common size, scaled down (aspect kept, even sides) so that its long side is at most
// kDefaultPackLongSide. The defaults that learn were measured on CamVid's 360x480 packs with
// 144x192 crops (docs/BENCHMARKS.md); an image set of that size trains at its own size.
inline constexpr int kDefaultPackLongSide = 480;

// The most common size among up to `sampled` images spread evenly over the project (their file
// headers only); images that cannot be read are passed over. Empty when none could be read.
cv::Size mostCommonImageSize(const Project& project, std::size_t sampled = 64);

// `size` scaled down so that its long side is at most `longSide`, each side rounded to an even
// number of at least 2; unchanged when it fits already.
cv::Size fitLongSide(cv::Size size, int longSide = kDefaultPackLongSide);

// fitLongSide(mostCommonImageSize(project)); empty when no image could be read.
cv::Size defaultPackSize(const Project& project);

}  // namespace project
}  // namespace segstudio::data
