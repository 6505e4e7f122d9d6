#include "CocoPolygonRle.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace segstudio::data {
inline namespace formats {

namespace {

constexpr double kScale = 5;  // rleFrPoly's upsampling

// (int)(scale * c + .5): C's conversion truncates towards zero, so it is not a rounding below 0.
int upsampled(double c)
{
    constexpr double kLimit = double(1 << 25);
    return int(kScale * std::max(-kLimit, std::min(kLimit, c)) + .5);
}

// The upsampled boundary, edge after edge, one point per step along the longer axis (both ends
// included), each rounded as rleFrPoly rounds it. A flipped edge is walked from the same end.
void walkEdge(cv::Point from, cv::Point to, std::vector<int>& u, std::vector<int>& v)
{
    int xs = from.x, xe = to.x, ys = from.y, ye = to.y;
    const int dx = std::abs(xe - xs), dy = std::abs(ys - ye);
    const bool flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
    if (flip) {
        std::swap(xs, xe);
        std::swap(ys, ye);
    }
    if (dx >= dy) {
        // A repeated vertex (dx = dy = 0) divides 0 by 0 in C; its one point shares u with both
        // neighbours, so its v is never read: 0 stands in for the NaN.
        const double s = dx == 0 ? 0.0 : double(ye - ys) / dx;
        for (int d = 0; d <= dx; ++d) {
            const int t = flip ? dx - d : d;
            u.push_back(t + xs);
            v.push_back(int(ys + s * t + .5));
        }
    } else {
        const double s = double(xe - xs) / dy;
        for (int d = 0; d <= dy; ++d) {
            const int t = flip ? dy - d : d;
            v.push_back(t + ys);
            u.push_back(int(xs + s * t + .5));
        }
    }
}

// Where the walk crosses a column centre (x + 0.5 at scale 5): the column and the first row below
// the crossing, as a column-major pixel index; rows clamped to [0, height], columns outside the
// image skipped. The image's pixel count closes the list.
std::vector<std::uint32_t> toggles(const std::vector<int>& u, const std::vector<int>& v, cv::Size size)
{
    const std::int64_t h = size.height, w = size.width;
    std::vector<std::uint32_t> a;
    for (std::size_t j = 1; j < u.size(); ++j) {
        if (u[j] == u[j - 1])
            continue;
        double xd = u[j] < u[j - 1] ? u[j] : u[j] - 1;
        xd = (xd + .5) / kScale - .5;
        if (std::floor(xd) != xd || xd < 0 || xd > double(w - 1))
            continue;
        double yd = v[j] < v[j - 1] ? v[j] : v[j - 1];
        yd = (yd + .5) / kScale - .5;
        yd = std::ceil(std::min(std::max(yd, 0.0), double(h)));
        a.push_back(std::uint32_t(std::int64_t(xd) * h + std::int64_t(yd)));  // C's uint conversion
    }
    a.push_back(std::uint32_t(h * w));
    return a;
}

// Sorted toggles as differences; a zero difference (two toggles on one pixel) cancels, so the
// run after it joins the run before.
std::vector<std::uint32_t> runsFromToggles(std::vector<std::uint32_t> a)
{
    std::sort(a.begin(), a.end());
    std::uint32_t previous = 0;
    for (std::uint32_t& t : a) {
        const std::uint32_t here = t;
        t -= previous;
        previous = here;
    }
    std::vector<std::uint32_t> runs {a[0]};
    for (std::size_t j = 1; j < a.size();) {
        if (a[j] > 0) {
            runs.push_back(a[j++]);
        } else if (++j < a.size()) {
            runs.back() += a[j++];
        }
    }
    return runs;
}

}  // namespace

std::vector<std::uint32_t> CocoPolygonRle::runsOf(const std::vector<cv::Point2d>& polygon, cv::Size size)
{
    std::vector<cv::Point> scaled;
    scaled.reserve(polygon.size() + 1);
    for (const cv::Point2d& p : polygon)
        scaled.emplace_back(upsampled(p.x), upsampled(p.y));
    std::vector<int> u, v;
    if (!scaled.empty()) {
        scaled.push_back(scaled.front());  // closed
        for (std::size_t j = 0; j + 1 < scaled.size(); ++j)
            walkEdge(scaled[j], scaled[j + 1], u, v);
    }
    return runsFromToggles(toggles(u, v, size));
}

}  // namespace formats
}  // namespace segstudio::data
