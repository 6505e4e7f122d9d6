#include "PairedBootstrap.h"

#include "Percentile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>

namespace segstudio::bench {

namespace {

double ratio(double numerator, double denominator)
{
    return denominator == 0 ? std::numeric_limits<double>::infinity() : numerator / denominator;
}

}  // namespace

double PairedBootstrap::median(std::vector<double> values)
{
    return values.empty() ? 0 : percentile(std::move(values), 0.5);
}

PairedBootstrap::Interval PairedBootstrap::medianRatio(const std::vector<double>& numerator,
                                                       const std::vector<double>& denominator, double level,
                                                       int resamples, std::uint64_t seed)
{
    if (numerator.empty() || numerator.size() != denominator.size())
        throw std::invalid_argument("PairedBootstrap: the two samples must be paired (same size, not empty)");
    if (!(level > 0 && level < 1) || resamples < 1)
        throw std::invalid_argument("PairedBootstrap: level must be in (0, 1) and resamples at least 1");
    Interval interval;
    interval.estimate = ratio(median(numerator), median(denominator));
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::size_t> pick(0, numerator.size() - 1);
    std::vector<double> ratios(static_cast<std::size_t>(resamples)), top(numerator.size()), bottom(numerator.size());
    for (double& r : ratios) {
        for (std::size_t i = 0; i < numerator.size(); ++i) {
            const std::size_t frame = pick(random);
            top[i] = numerator[frame];
            bottom[i] = denominator[frame];
        }
        r = ratio(median(top), median(bottom));
    }
    std::sort(ratios.begin(), ratios.end());
    const auto at = [&ratios](double share) {
        const auto index = std::size_t(std::clamp(std::floor(share * double(ratios.size())), 0.0, double(ratios.size() - 1)));
        return ratios[index];
    };
    interval.low = at((1 - level) / 2);
    interval.high = at(1 - (1 - level) / 2);
    return interval;
}

}  // namespace segstudio::bench
