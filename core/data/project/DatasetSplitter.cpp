#include "DatasetSplitter.h"

#include "data/labels/DataError.h"

#include <cmath>
#include <numeric>

namespace segstudio::data {
inline namespace project {

namespace {

// splitmix64: tiny, fixed and portable, unlike the distributions of <random>.
std::uint64_t nextRandom(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace

std::vector<Split> DatasetSplitter::split(std::size_t count, SplitRatios ratios, std::uint64_t seed)
{
    const double total = ratios.train + ratios.val + ratios.test;
    if (ratios.train < 0 || ratios.val < 0 || ratios.test < 0 || total <= 0)
        throw DataError({}, "split ratios must be non-negative and not all zero");
    const auto trainCount = std::size_t(std::llround(double(count) * ratios.train / total));
    const auto valCount = std::min(count - trainCount, std::size_t(std::llround(double(count) * ratios.val / total)));

    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::uint64_t state = seed;
    for (std::size_t i = count; i > 1; --i)  // Fisher-Yates
        std::swap(order[i - 1], order[nextRandom(state) % i]);

    std::vector<Split> splits(count, Split::Test);
    for (std::size_t n = 0; n < count; ++n)
        splits[order[n]] = n < trainCount ? Split::Train : n < trainCount + valCount ? Split::Val : Split::Test;
    return splits;
}

void DatasetSplitter::apply(Project& project, SplitRatios ratios, std::uint64_t seed)
{
    const std::vector<Split> splits = split(project.size(), ratios, seed);
    for (std::size_t i = 0; i < splits.size(); ++i)
        project.setSplit(i, splits[i]);
}

}  // namespace project
}  // namespace segstudio::data
