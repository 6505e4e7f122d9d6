#pragma once

#include "Project.h"

#include <cstdint>

namespace segstudio::data {
inline namespace project {

struct SplitRatios {
    double train = 0.6;
    double val = 0.2;
    double test = 0.2;
};

// Deterministic, seeded random split: the same seed and image list always give the same split,
// on every platform (own shuffle over a fixed-width generator, not std::shuffle).
class DatasetSplitter {
public:
    static std::vector<Split> split(std::size_t count, SplitRatios ratios = {}, std::uint64_t seed = 0);
    static void apply(Project& project, SplitRatios ratios = {}, std::uint64_t seed = 0);
};

}  // namespace project
}  // namespace segstudio::data
