#pragma once

#include <cstdint>
#include <vector>

namespace segstudio::pack {

// Class-balancing weights for the loss, from per-class pixel statistics. Shared by core/data's
// statistics and the engine so both use one formula. A class with no pixels gets weight 0.

// Median-frequency balancing (Eigen & Fergus): freq_c = pixels of c / pixels of the images that
// contain c; weight_c = median(freq over present classes) / freq_c.
std::vector<double> medianFrequencyWeights(const std::vector<std::uint64_t>& classPixels,
                                           const std::vector<std::uint64_t>& imagePixels);

// The square root of median-frequency weights: the same order, a far smaller spread (on CamVid
// pole/sky 5.5x instead of 30x), so rare classes are not over-predicted at the cost of their IoU.
std::vector<double> sqrtMedianFrequencyWeights(const std::vector<std::uint64_t>& classPixels,
                                               const std::vector<std::uint64_t>& imagePixels);

// Inverse frequency: weight_c = total labelled pixels / (present classes * pixels of c).
std::vector<double> inverseFrequencyWeights(const std::vector<std::uint64_t>& classPixels);

}  // namespace segstudio::pack
