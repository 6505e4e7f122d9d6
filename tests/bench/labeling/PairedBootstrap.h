#pragma once

#include <cstdint>
#include <vector>

namespace segstudio::bench {

// How far a ratio of two medians measured on a few frames can be trusted (issue 61: 8 frames a
// set, where the figures move by a fifth between two equally good models). The same frames are
// measured two ways (propagate and smart: a pair per frame); the frames are resampled with
// replacement, pairs kept together, and the ratio of the medians recomputed on each resample: the
// interval holds the middle `level` of those ratios (the percentile bootstrap).
class PairedBootstrap {
public:
    struct Interval {
        double estimate = 0;  // the ratio of the medians of all frames
        double low = 0;
        double high = 0;
    };

    // Throws std::invalid_argument when the sizes differ or are 0, or level is not in (0, 1).
    // A median of 0 in the denominator gives an infinite ratio. Same inputs and seed, same interval.
    static Interval medianRatio(const std::vector<double>& numerator, const std::vector<double>& denominator,
                                double level = 0.9, int resamples = 5000, std::uint64_t seed = 1);

    // The median (the mean of the middle two of an even count), as bench_annotator's medians.
    static double median(std::vector<double> values);
};

}  // namespace segstudio::bench
