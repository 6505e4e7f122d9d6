#pragma once

#include <algorithm>
#include <vector>

namespace segstudio::bench {

// The p-quantile of values, interpolated between the two nearest (p 0.5: the median, the mean of
// the middle two of an even count); -1 for no values, as the benchmarks' JSON marks "none".
inline double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    const double at = p * double(values.size() - 1);
    const auto low = std::size_t(at);
    const auto high = std::min(values.size() - 1, low + 1);
    return values[low] + (values[high] - values[low]) * (at - double(low));
}

}  // namespace segstudio::bench
