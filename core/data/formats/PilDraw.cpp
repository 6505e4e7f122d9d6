#include "PilDraw.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>

namespace segstudio::data {
inline namespace formats {

namespace {

// _imaging.c converts each coordinate with (int): towards zero. The clamp keeps the conversion and
// every difference below defined (NaN lands on a bound too); Pillow has no clamp, nor needs one
// within the image.
int truncated(double v)
{
    constexpr double kLimit = double(1 << 28);
    return int(std::max(-kLimit, std::min(kLimit, v)));
}

cv::Point truncated(const cv::Point2d& p) { return {truncated(p.x), truncated(p.y)}; }

// Draw.c's ROUND_UP / ROUND_DOWN applied to a float, in its arithmetic: f + 0.5F is a float sum,
// while fabs() returns a double, so a negative f is rounded in double.
int roundUp(float f) { return int(f >= 0.0f ? double(std::floor(f + 0.5f)) : -std::floor(std::fabs(double(f)) + 0.5)); }

int roundDown(float f) { return int(f >= 0.0f ? double(std::ceil(f - 0.5f)) : -std::ceil(std::fabs(double(f)) - 0.5)); }

// The same macros applied to a double (ImagingDrawWideLine's ratios).
int roundUpDouble(double f) { return int(f >= 0.0 ? std::floor(f + 0.5) : -std::floor(std::fabs(f) + 0.5)); }

int roundDownDouble(double f) { return int(f >= 0.0 ? std::ceil(f - 0.5) : -std::ceil(std::fabs(f) - 0.5)); }

// hline8: x0..x1 inclusive, in either order, clipped to the image.
void hline(cv::Mat& image, int x0, int y, int x1, std::uint8_t ink)
{
    if (y < 0 || y >= image.rows)
        return;
    if (x0 > x1)
        std::swap(x0, x1);
    x0 = std::max(x0, 0);
    x1 = std::min(x1, image.cols - 1);
    if (x0 <= x1) {
        auto* row = image.ptr<std::uint8_t>(y);
        std::fill(row + x0, row + x1 + 1, ink);
    }
}

void point(cv::Mat& image, int x, int y, std::uint8_t ink)
{
    if (x >= 0 && x < image.cols && y >= 0 && y < image.rows)
        image.at<std::uint8_t>(y, x) = ink;
}

// Draw.c's Edge (its unused direction field left out), made by add_edge.
struct Edge {
    int x0 = 0, y0 = 0;
    int xmin = 0, ymin = 0, xmax = 0, ymax = 0;
    float dx = 0.0f;  // x step per row, in float as Pillow keeps it
};

Edge edgeBetween(cv::Point a, cv::Point b)
{
    Edge e;
    e.xmin = std::min(a.x, b.x);
    e.xmax = std::max(a.x, b.x);
    e.ymin = std::min(a.y, b.y);
    e.ymax = std::max(a.y, b.y);
    e.dx = a.y == b.y ? 0.0f : float(b.x - a.x) / float(b.y - a.y);
    e.x0 = a.x;
    e.y0 = a.y;
    return e;
}

// (y - y0) * dx + x0 in float, as polygon_generic computes every crossing: a product rounded to
// float, then a sum rounded to float (baseline x86-64 has no fused multiply-add to merge them,
// neither in Debian's Pillow nor here).
float crossingAt(const Edge& e, int y)
{
    const float product = float(y - e.y0) * e.dx;
    return product + float(e.x0);
}

// polygon_generic's "connect discontiguous corners": when edge i crosses row y at an integral x
// where it meets an earlier edge k of the same slope sign in a corner, the crossing stored at
// position k (an edge index used as a crossing index, as Pillow does) is moved to where the two
// edges are one row on. Kept as it is: it decides single pixels at integral vertices.
void connectCorner(const std::vector<const Edge*>& table, std::size_t i, int y, int ymax, float x,
                   std::vector<float>& xx)
{
    const Edge& current = *table[i];
    for (std::size_t k = 0; k < i; ++k) {
        const Edge& other = *table[k];
        if ((current.dx > 0 && other.dx <= 0) || (current.dx < 0 && other.dx >= 0))
            continue;
        const bool corner = (y == current.ymin && y == other.ymin) || (y == current.ymax && y == other.ymax);
        if (!corner || x != crossingAt(other, y))
            continue;
        const int offset = y == ymax ? -1 : 1;  // the last row looks back instead
        const double here = crossingAt(current, y + offset), there = crossingAt(other, y + offset);
        if (y == current.ymax)
            xx[k] = float(current.dx > 0 ? std::max(here, there) + 1 : std::min(here, there) - 1);
        else
            xx[k] = float(current.dx > 0 ? std::min(here, there) : std::max(here, there) + 1);
        return;
    }
}

// The crossings of row y, in edge order (sorted by the caller). An edge ending on y counts twice
// unless y is the last row, so a vertex between two edges keeps the span count even.
std::size_t crossingsOf(const std::vector<const Edge*>& table, int y, int ymax, std::vector<float>& xx)
{
    std::size_t j = 0;
    for (std::size_t i = 0; i < table.size(); ++i) {
        const Edge& current = *table[i];
        if (y < current.ymin || y > current.ymax)
            continue;
        xx[j] = crossingAt(current, y);
        ++j;
        if (y == current.ymax && y < ymax) {
            xx[j] = xx[j - 1];
            ++j;
        } else if (current.dx != 0 && std::floor(xx[j - 1]) == xx[j - 1]) {
            connectCorner(table, i, y, ymax, xx[j - 1], xx);
        }
    }
    return j;
}

// polygon_generic for a mode-L image: horizontal edges drawn whole, then each row from the top
// vertex to the bottom one (clipped to [0, rows]) filled between pairs of sorted crossings,
// from ROUND_UP of the left to ROUND_DOWN of the right.
void fillEdges(cv::Mat& image, const std::vector<Edge>& edges, std::uint8_t ink)
{
    if (edges.empty())
        return;
    int ymin = image.rows - 1, ymax = 0;
    std::vector<const Edge*> table;
    for (const Edge& e : edges) {
        ymin = std::min(ymin, e.ymin);
        ymax = std::max(ymax, e.ymax);
        if (e.ymin == e.ymax)
            hline(image, e.xmin, e.ymin, e.xmax, ink);
        else
            table.push_back(&e);
    }
    ymin = std::max(ymin, 0);
    ymax = std::min(ymax, image.rows);
    // Sized and kept as Pillow's calloc'd array: connectCorner may write past the row's count.
    std::vector<float> xx(table.size() * 2, 0.0f);
    for (int y = ymin; y <= ymax; ++y) {
        const std::size_t count = crossingsOf(table, y, ymax, xx);
        std::sort(xx.begin(), xx.begin() + std::ptrdiff_t(count));
        for (std::size_t i = 1; i < count; i += 2)
            hline(image, roundUp(xx[i - 1]), y, roundDown(xx[i]), ink);
    }
}

// ImagingDrawPolygon's edge list: a horizontal edge that continues the previous horizontal edge
// in the same direction widens it instead of adding one.
bool widensPrevious(Edge& previous, int before, cv::Point a, cv::Point b)
{
    if (b.x > a.x && a.x > before) {
        previous.xmax = b.x;
        return true;
    }
    if (b.x < a.x && a.x < before) {
        previous.xmin = b.x;
        return true;
    }
    return false;
}

std::vector<Edge> polygonEdges(const std::vector<cv::Point>& xy)
{
    std::vector<Edge> edges;
    std::size_t i = 0;
    for (; i + 1 < xy.size(); ++i) {
        const cv::Point a = xy[i], b = xy[i + 1];
        if (a.y == b.y && i != 0 && a.y == xy[i - 1].y && widensPrevious(edges.back(), xy[i - 1].x, a, b))
            continue;
        edges.push_back(edgeBetween(a, b));
    }
    if (xy[i] != xy[0])
        edges.push_back(edgeBetween(xy[i], xy[0]));
    return edges;
}

// Draw.c's quarter_state: the top-right quarter of an ellipse of axes a and b on the grid of
// points (2x + a % 2, 2y + b % 2), walked from (a, b % 2) to (a % 2, b), each step to the
// neighbour nearest the curve.
class QuarterEllipse {
public:
    QuarterEllipse(int a, int b)
    {
        if (a < 0 || b < 0) {
            m_finished = true;
            return;
        }
        m_cx = a;
        m_cy = b % 2;
        m_ex = a % 2;
        m_ey = b;
        m_a2 = std::int64_t(a) * a;
        m_b2 = std::int64_t(b) * b;
        m_a2b2 = m_a2 * m_b2;
    }

    bool next(int& x, int& y)
    {
        if (m_finished)
            return false;
        x = m_cx;
        y = m_cy;
        if (m_cx == m_ex && m_cy == m_ey) {
            m_finished = true;
            return true;
        }
        int nx = m_cx, ny = m_cy + 2;
        std::int64_t nearest = delta(nx, ny);
        if (nx > 1) {
            if (const std::int64_t d = delta(m_cx - 2, m_cy + 2); nearest > d) {
                nx = m_cx - 2;
                ny = m_cy + 2;
                nearest = d;
            }
            if (const std::int64_t d = delta(m_cx - 2, m_cy); nearest > d) {
                nx = m_cx - 2;
                ny = m_cy;
            }
        }
        m_cx = nx;
        m_cy = ny;
        return true;
    }

private:
    std::int64_t delta(std::int64_t x, std::int64_t y) const
    {
        return std::llabs(m_a2 * y * y + m_b2 * x * x - m_a2b2);
    }

    int m_cx = 0, m_cy = 0, m_ex = 0, m_ey = 0;
    std::int64_t m_a2 = 0, m_b2 = 0, m_a2b2 = 0;
    bool m_finished = false;
};

// Draw.c's ellipse_state: the horizontal spans (x0, y, x1 on the doubled grid centred on the
// ellipse) between an outer quarter and an inner one `width` further in, mirrored into all four
// quarters. A filled ellipse has width a + b.
class EllipseSpans {
public:
    EllipseSpans(int a, int b, int width) : m_outer(a, b), m_inner(-1, -1), m_leftmost(a % 2)
    {
        if (width < 1 || !m_outer.next(m_right, m_y)) {
            m_finished = true;
            return;
        }
        m_inner = QuarterEllipse(a - 2 * (width - 1), b - 2 * (width - 1));
        m_left = m_leftmost;
    }

    bool next(int& x0, int& y, int& x1)
    {
        if (m_count == 0) {
            if (m_finished)
                return false;
            refill();
        }
        --m_count;
        x0 = m_spans[m_count][0];
        y = m_spans[m_count][1];
        x1 = m_spans[m_count][2];
        return true;
    }

private:
    // One row of the outer quarter (and what of the inner one lies on it), as up to four spans.
    void refill()
    {
        const int y = m_y, r = m_right;
        int l = m_left, cx = 0, cy = 0;
        bool more = false;
        while ((more = m_outer.next(cx, cy)) && cy <= y) { }
        if (more) {
            m_right = cx;
            m_y = cy;
        } else {
            m_finished = true;
        }
        while ((more = m_inner.next(cx, cy)) && cy <= y)
            l = cx;
        m_left = more ? cx : m_leftmost;
        if ((l > 0 || l < r) && y > 0)
            push(l == 0 ? 2 : l, y, r);
        if (y > 0)
            push(-r, y, -l);
        if (l > 0 || l < r)
            push(l == 0 ? 2 : l, -y, r);
        push(-r, -y, -l);
    }

    void push(int x0, int y, int x1) { m_spans[m_count++] = {x0, y, x1}; }

    QuarterEllipse m_outer, m_inner;
    int m_leftmost = 0;
    int m_y = 0, m_left = 0, m_right = 0;
    std::array<std::array<int, 3>, 4> m_spans {};
    int m_count = 0;
    bool m_finished = false;
};

// Past this an axis's square overflows Pillow's 32-bit a * a (and our 64-bit a2 * y * y).
constexpr int kLargestEllipseAxis = 46340;

}  // namespace

PilDraw::PilDraw(cv::Mat& image) : m_image(image) { CV_Assert(image.type() == CV_8UC1); }

void PilDraw::polygon(const std::vector<cv::Point2d>& xy, std::uint8_t ink)
{
    if (xy.empty())
        return;
    std::vector<cv::Point> points;
    points.reserve(xy.size());
    for (const cv::Point2d& p : xy)
        points.push_back(truncated(p));
    fillEdges(m_image, polygonEdges(points), ink);
}

void PilDraw::rectangle(cv::Point2d a, cv::Point2d b, std::uint8_t ink)
{
    const cv::Point p = truncated(a), q = truncated(b);
    // ImagingDrawRectangle's fill: rows in order, clipped to [0, rows] (hline drops row `rows`).
    const int top = std::max(std::min(p.y, q.y), 0), bottom = std::min(std::max(p.y, q.y), m_image.rows);
    for (int y = top; y <= bottom; ++y)
        hline(m_image, p.x, y, q.x, ink);
}

void PilDraw::ellipse(cv::Point2d topLeft, cv::Point2d bottomRight, std::uint8_t ink)
{
    const cv::Point p = truncated(topLeft), q = truncated(bottomRight);
    const int a = q.x - p.x, b = q.y - p.y;
    if (a < 0 || b < 0)
        return;
    if (a > kLargestEllipseAxis || b > kLargestEllipseAxis) {
        // Centre and axes in halves of a pixel (one fractional bit).
        cv::ellipse(m_image, cv::Point(p.x + q.x, p.y + q.y), cv::Size(a, b), 0, 0, 360, cv::Scalar(ink), cv::FILLED,
                    cv::LINE_8, /*shift=*/1);
        return;
    }
    EllipseSpans spans(a, b, /*width=*/a + b);
    int x0 = 0, y = 0, x1 = 0;
    // The spans are on a grid of doubled coordinates centred on the ellipse: (v + a) / 2 is never
    // negative, so C's truncating division is a floor here.
    while (spans.next(x0, y, x1))
        hline(m_image, p.x + (x0 + a) / 2, p.y + (y + b) / 2, p.x + (x1 + a) / 2, ink);
}

void PilDraw::line(const std::vector<cv::Point2d>& xy, int width, std::uint8_t ink)
{
    if (width < 2)
        throw std::invalid_argument("PilDraw::line draws wide lines only (width >= 2)");
    for (std::size_t i = 0; i + 1 < xy.size(); ++i)
        wideSegment(truncated(xy[i]), truncated(xy[i + 1]), width, ink);
}

// ImagingDrawWideLine: the segment as a quadrilateral whose sides are offset by the rounded half
// width along the normal (ROUND_UP on one side, ROUND_DOWN on the other), filled as a polygon; a
// segment of length 0 is one pixel.
void PilDraw::wideSegment(cv::Point from, cv::Point to, int width, std::uint8_t ink)
{
    const int dx = to.x - from.x, dy = to.y - from.y;
    if (dx == 0 && dy == 0) {
        point(m_image, from.x, from.y, ink);
        return;
    }
    const double bigHypotenuse = std::hypot(double(dx), double(dy));
    const double smallHypotenuse = (width - 1) / 2.0;
    const double ratioMax = roundUpDouble(smallHypotenuse) / bigHypotenuse;
    const double ratioMin = roundDownDouble(smallHypotenuse) / bigHypotenuse;
    const int dxmin = roundDownDouble(ratioMin * dy), dxmax = roundDownDouble(ratioMax * dy);
    const int dymin = roundDownDouble(ratioMin * dx), dymax = roundDownDouble(ratioMax * dx);
    const std::array<cv::Point, 4> vertices = {
        cv::Point(from.x - dxmin, from.y + dymax), cv::Point(to.x - dxmin, to.y + dymax),
        cv::Point(to.x + dxmax, to.y - dymin), cv::Point(from.x + dxmax, from.y - dymin)};
    std::vector<Edge> edges;
    for (std::size_t k = 0; k < vertices.size(); ++k)
        edges.push_back(edgeBetween(vertices[k], vertices[(k + 1) % vertices.size()]));
    fillEdges(m_image, edges, ink);
}

}  // namespace formats
}  // namespace segstudio::data
