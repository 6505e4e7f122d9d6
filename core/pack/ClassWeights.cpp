#include "ClassWeights.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace segstudio::pack {

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

std::vector<double> medianFrequencyWeights(const std::vector<std::uint64_t>& classPixels,
                                           const std::vector<std::uint64_t>& imagePixels)
{
    std::vector<double> frequency(classPixels.size(), 0.0);
    std::vector<double> present;
    for (std::size_t c = 0; c < classPixels.size(); ++c) {
        if (classPixels[c] == 0 || imagePixels[c] == 0)
            continue;
        frequency[c] = double(classPixels[c]) / double(imagePixels[c]);
        present.push_back(frequency[c]);
    }
    std::vector<double> weights(classPixels.size(), 0.0);
    if (present.empty())
        return weights;
    const double med = median(present);
    for (std::size_t c = 0; c < classPixels.size(); ++c)
        weights[c] = frequency[c] > 0 ? med / frequency[c] : 0.0;
    return weights;
}

std::vector<double> sqrtMedianFrequencyWeights(const std::vector<std::uint64_t>& classPixels,
                                               const std::vector<std::uint64_t>& imagePixels)
{
    std::vector<double> weights = medianFrequencyWeights(classPixels, imagePixels);
    for (double& w : weights)
        w = std::sqrt(w);
    return weights;
}

std::vector<double> inverseFrequencyWeights(const std::vector<std::uint64_t>& classPixels)
{
    const double total = std::accumulate(classPixels.begin(), classPixels.end(), 0.0);
    const auto present = std::count_if(classPixels.begin(), classPixels.end(), [](std::uint64_t n) { return n > 0; });
    std::vector<double> weights(classPixels.size(), 0.0);
    for (std::size_t c = 0; c < classPixels.size(); ++c)
        if (classPixels[c] > 0)
            weights[c] = total / (double(present) * double(classPixels[c]));
    return weights;
}

}  // namespace segstudio::pack
