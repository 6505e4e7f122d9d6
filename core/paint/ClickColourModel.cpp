#include "ClickColourModel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace segstudio::paint {

ClickColourModel::ClickColourModel(const cv::Mat& rgb) : m_bins(rgb.size(), CV_16UC1), m_image(kBins, 0.0f)
{
    if (rgb.empty() || rgb.type() != CV_8UC3)
        throw std::invalid_argument("ClickColourModel: needs an 8-bit RGB image");
    constexpr int shift = 5;  // 256 / kLevels = 32
    for (int y = 0; y < rgb.rows; ++y) {
        const auto* in = rgb.ptr<cv::Vec3b>(y);
        auto* out = m_bins.ptr<std::uint16_t>(y);
        for (int x = 0; x < rgb.cols; ++x) {
            out[x] = std::uint16_t(((in[x][0] >> shift) * kLevels + (in[x][1] >> shift)) * kLevels + (in[x][2] >> shift));
            m_image[out[x]] += 1.0f;
        }
    }
    spread(m_image);
    normalise(m_image);
}

// The bins of the pixels within `radius` of the points of one sign.
std::vector<float> ClickColourModel::histogramAround(const std::vector<Point>& points, bool positive, int radius) const
{
    std::vector<float> histogram(kBins, 0.0f);
    const int r2 = radius * radius;
    for (const Point& point : points) {
        if (point.positive != positive)
            continue;
        for (int dy = -radius; dy <= radius; ++dy) {
            const int y = point.at.y + dy;
            if (y < 0 || y >= m_bins.rows)
                continue;
            const auto* bins = m_bins.ptr<std::uint16_t>(y);
            for (int dx = -radius; dx <= radius; ++dx) {
                const int x = point.at.x + dx;
                if (x >= 0 && x < m_bins.cols && dx * dx + dy * dy <= r2)
                    histogram[bins[x]] += 1.0f;
            }
        }
    }
    return histogram;
}

// Half of each bin's count goes to its six face neighbours, so nearby colours share evidence.
void ClickColourModel::spread(std::vector<float>& histogram)
{
    std::vector<float> out(histogram.size(), 0.0f);
    const auto index = [](int r, int g, int b) { return (r * kLevels + g) * kLevels + b; };
    for (int r = 0; r < kLevels; ++r)
        for (int g = 0; g < kLevels; ++g)
            for (int b = 0; b < kLevels; ++b) {
                const float count = histogram[std::size_t(index(r, g, b))];
                if (count == 0.0f)
                    continue;
                const std::array<std::array<int, 3>, 6> neighbours{
                    {{r - 1, g, b}, {r + 1, g, b}, {r, g - 1, b}, {r, g + 1, b}, {r, g, b - 1}, {r, g, b + 1}}};
                int inside = 0;
                for (const auto& n : neighbours)
                    inside += std::all_of(n.begin(), n.end(), [](int v) { return v >= 0 && v < kLevels; });
                out[std::size_t(index(r, g, b))] += inside > 0 ? 0.5f * count : count;
                for (const auto& n : neighbours)
                    if (std::all_of(n.begin(), n.end(), [](int v) { return v >= 0 && v < kLevels; }))
                        out[std::size_t(index(n[0], n[1], n[2]))] += 0.5f * count / float(inside);
            }
    histogram.swap(out);
}

void ClickColourModel::normalise(std::vector<float>& histogram)
{
    const float total = std::accumulate(histogram.begin(), histogram.end(), 0.0f);
    if (total > 0.0f)
        for (float& value : histogram)
            value /= total;
}

cv::Mat ClickColourModel::logRatio(const std::vector<Point>& points, int radius, float limit) const
{
    cv::Mat ratio(m_bins.size(), CV_32FC1, cv::Scalar(0));
    std::vector<float> object = histogramAround(points, true, radius);
    if (empty() || std::all_of(object.begin(), object.end(), [](float v) { return v == 0.0f; }))
        return ratio;
    spread(object);
    normalise(object);
    // Elsewhere: the negative clicks' colours, mixed half and half with the image's (so a colour
    // neither clicked nor common is not decided by a handful of samples).
    std::vector<float> elsewhere = histogramAround(points, false, radius);
    const bool anyNegative = std::any_of(elsewhere.begin(), elsewhere.end(), [](float v) { return v > 0.0f; });
    spread(elsewhere);
    normalise(elsewhere);
    // A floor of a tenth of a uniform bin's share keeps unseen colours finite on both sides.
    constexpr float floor = 0.1f / float(kBins);
    std::vector<float> table(kBins);
    for (int b = 0; b < kBins; ++b) {
        const float background = anyNegative ? 0.5f * (elsewhere[std::size_t(b)] + m_image[std::size_t(b)])
                                             : m_image[std::size_t(b)];
        table[std::size_t(b)] = std::clamp(std::log(object[std::size_t(b)] + floor) - std::log(background + floor),
                                           -limit, limit);
    }
    for (int y = 0; y < m_bins.rows; ++y) {
        const auto* bins = m_bins.ptr<std::uint16_t>(y);
        auto* out = ratio.ptr<float>(y);
        for (int x = 0; x < m_bins.cols; ++x)
            out[x] = table[bins[x]];
    }
    return ratio;
}

}  // namespace segstudio::paint
