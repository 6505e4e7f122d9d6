#include "BoundaryF1.h"

#include "Boundary.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>

namespace segstudio::metrics {

namespace {

constexpr float kFar = 1e20f;

// Squared distance transform of a sampled function along one line (Felzenszwalb & Huttenlocher,
// "Distance Transforms of Sampled Functions", 2012): the lower envelope of parabolas.
void squaredDistance1d(const float* f, int n, float* d, int* v, float* z)
{
    int k = 0;
    v[0] = 0;
    z[0] = -kFar;
    z[1] = kFar;
    for (int q = 1; q < n; ++q) {
        float s = 0.0f;
        while (true) {  // drop the parabolas the new one hides; z[0] = -kFar ends the walk at k = 0
            const int p = v[k];
            s = ((f[q] + float(q) * float(q)) - (f[p] + float(p) * float(p))) / float(2 * q - 2 * p);
            if (s > z[k] || k == 0)
                break;
            --k;
        }
        ++k;
        v[k] = q;
        z[k] = s;
        z[k + 1] = kFar;
    }
    k = 0;
    for (int q = 0; q < n; ++q) {
        while (z[k + 1] < float(q))
            ++k;
        const float offset = float(q - v[k]);
        d[q] = offset * offset + f[v[k]];
    }
}

// Squared Euclidean distance of every pixel to the nearest set pixel of `seeds` (kFar-ish
// values when there is none).
std::vector<float> squaredDistanceTo(const std::vector<std::uint8_t>& seeds, int width, int height)
{
    std::vector<float> grid(seeds.size());
    for (std::size_t i = 0; i < seeds.size(); ++i)
        grid[i] = seeds[i] ? 0.0f : kFar;
    const auto longest = std::size_t(std::max(width, height));
    std::vector<float> line(longest), out(longest), z(longest + 1);
    std::vector<int> v(longest);
    for (int x = 0; x < width; ++x) {
        for (int y = 0; y < height; ++y)
            line[std::size_t(y)] = grid[std::size_t(y) * std::size_t(width) + std::size_t(x)];
        squaredDistance1d(line.data(), height, out.data(), v.data(), z.data());
        for (int y = 0; y < height; ++y)
            grid[std::size_t(y) * std::size_t(width) + std::size_t(x)] = out[std::size_t(y)];
    }
    for (int y = 0; y < height; ++y) {
        float* row = grid.data() + std::size_t(y) * std::size_t(width);
        std::copy(row, row + width, line.begin());
        squaredDistance1d(line.data(), width, row, v.data(), z.data());
    }
    return grid;
}

// Pixels of the class on a boundary (Boundary.h's rule, on the class's own mask).
std::vector<std::uint8_t> boundaryOf(const std::vector<std::uint8_t>& mask, int width, int height, std::size_t& count)
{
    std::vector<std::uint8_t> boundary(mask.size(), 0);
    count = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
            if (mask[i] && onBoundary(mask.data(), width, height, x, y)) {
                boundary[i] = 1;
                ++count;
            }
        }
    return boundary;
}

// Share of `from`'s boundary pixels within the tolerance of `to`'s boundary.
double matchedShare(const std::vector<std::uint8_t>& from, std::size_t fromCount, const std::vector<float>& distanceToOther,
                    double squaredTolerance)
{
    std::size_t matched = 0;
    for (std::size_t i = 0; i < from.size(); ++i)
        matched += from[i] && double(distanceToOther[i]) <= squaredTolerance;
    return double(matched) / double(fromCount);
}

}  // namespace

double boundaryTolerance(int width, int height) { return 0.0075 * std::hypot(double(width), double(height)); }

std::vector<double> boundaryF1(const std::uint8_t* truth, const std::uint8_t* predicted, int width, int height, int classes,
                               double tolerance)
{
    if (width <= 0 || height <= 0 || classes <= 0)
        throw std::invalid_argument("boundary F1 needs a non-empty image and at least one class");
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    const double squaredTolerance = tolerance * tolerance;
    std::vector<double> scores(std::size_t(classes), std::numeric_limits<double>::quiet_NaN());
    std::vector<std::uint8_t> trueMask(pixels), predictedMask(pixels);
    for (int c = 0; c < classes; ++c) {
        std::size_t inTruth = 0, inPrediction = 0;
        for (std::size_t i = 0; i < pixels; ++i) {
            const bool labelled = truth[i] < classes;
            trueMask[i] = truth[i] == c;
            predictedMask[i] = labelled && predicted[i] == c;
            inTruth += trueMask[i];
            inPrediction += predictedMask[i];
        }
        if (inTruth == 0 && inPrediction == 0)
            continue;
        if (inTruth == 0 || inPrediction == 0) {
            scores[std::size_t(c)] = 0.0;
            continue;
        }
        std::size_t trueCount = 0, predictedCount = 0;
        const auto trueBoundary = boundaryOf(trueMask, width, height, trueCount);
        const auto predictedBoundary = boundaryOf(predictedMask, width, height, predictedCount);
        if (trueCount == 0 || predictedCount == 0) {
            scores[std::size_t(c)] = trueCount == predictedCount ? 1.0 : 0.0;
            continue;
        }
        const double precision =
            matchedShare(predictedBoundary, predictedCount, squaredDistanceTo(trueBoundary, width, height), squaredTolerance);
        const double recall =
            matchedShare(trueBoundary, trueCount, squaredDistanceTo(predictedBoundary, width, height), squaredTolerance);
        scores[std::size_t(c)] = precision + recall > 0 ? 2.0 * precision * recall / (precision + recall) : 0.0;
    }
    return scores;
}

}  // namespace segstudio::metrics
