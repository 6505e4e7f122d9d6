#include "SuperpixelMap.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace segstudio::paint {

namespace {

struct Centre {
    float l, a, b, x, y;
};

}  // namespace

SuperpixelMap SuperpixelMap::compute(const cv::Mat& rgb, int regionSize, double compactness, int iterations,
                                     int maxWorkPixels)
{
    CV_Assert(rgb.type() == CV_8UC3 && !rgb.empty());
    const double pixels = static_cast<double>(rgb.total());
    const double scale = std::min(1.0, std::sqrt(maxWorkPixels / pixels));
    cv::Mat work = rgb;
    if (scale < 1.0)
        cv::resize(rgb, work, cv::Size(), scale, scale, cv::INTER_AREA);
    cv::Mat lab;
    cv::cvtColor(work, lab, cv::COLOR_RGB2Lab);
    lab.convertTo(lab, CV_32FC3);
    const int step = std::max(2, static_cast<int>(std::lround(regionSize * scale)));

    SuperpixelMap map;
    int count = 0;
    cv::Mat ids = enforceConnectivity(cluster(lab, step, compactness, iterations), std::max(1, step * step / 4), &count);
    if (scale < 1.0)
        cv::resize(ids, ids, rgb.size(), 0, 0, cv::INTER_NEAREST);
    map.m_ids = ids;
    std::vector<cv::Point> lo(static_cast<std::size_t>(count), cv::Point(ids.cols, ids.rows));
    std::vector<cv::Point> hi(static_cast<std::size_t>(count), cv::Point(-1, -1));
    for (int y = 0; y < ids.rows; ++y) {
        const int* row = ids.ptr<int>(y);
        for (int x = 0; x < ids.cols; ++x) {
            const auto k = static_cast<std::size_t>(row[x]);
            lo[k] = {std::min(lo[k].x, x), std::min(lo[k].y, y)};
            hi[k] = {std::max(hi[k].x, x), std::max(hi[k].y, y)};
        }
    }
    map.m_bounds.resize(static_cast<std::size_t>(count));
    for (std::size_t k = 0; k < map.m_bounds.size(); ++k)
        map.m_bounds[k] = hi[k].x < 0 ? cv::Rect() : cv::Rect(lo[k], hi[k] + cv::Point(1, 1));
    return map;
}

cv::Mat SuperpixelMap::cluster(const cv::Mat& lab, int step, double compactness, int iterations)
{
    std::vector<Centre> centres;
    for (int y = step / 2; y < lab.rows; y += step) {
        for (int x = step / 2; x < lab.cols; x += step) {
            const auto& p = lab.at<cv::Vec3f>(y, x);
            centres.push_back({p[0], p[1], p[2], static_cast<float>(x), static_cast<float>(y)});
        }
    }
    if (centres.empty())
        centres.push_back({0, 0, 0, 0, 0});
    cv::Mat labels(lab.size(), CV_32SC1, cv::Scalar(0));
    cv::Mat distance(lab.size(), CV_32FC1);
    const float spatialWeight = static_cast<float>((compactness * compactness) / (step * step));
    for (int iteration = 0; iteration < iterations; ++iteration) {
        distance.setTo(std::numeric_limits<float>::max());
        for (std::size_t k = 0; k < centres.size(); ++k) {
            const Centre& c = centres[k];
            const int x0 = std::max(0, static_cast<int>(c.x) - step), x1 = std::min(lab.cols, static_cast<int>(c.x) + step + 1);
            const int y0 = std::max(0, static_cast<int>(c.y) - step), y1 = std::min(lab.rows, static_cast<int>(c.y) + step + 1);
            for (int y = y0; y < y1; ++y) {
                const cv::Vec3f* row = lab.ptr<cv::Vec3f>(y);
                float* dist = distance.ptr<float>(y);
                int* label = labels.ptr<int>(y);
                const float dy = y - c.y;
                for (int x = x0; x < x1; ++x) {
                    const float dl = row[x][0] - c.l, da = row[x][1] - c.a, db = row[x][2] - c.b;
                    const float dx = x - c.x;
                    const float d = dl * dl + da * da + db * db + spatialWeight * (dx * dx + dy * dy);
                    if (d < dist[x]) {
                        dist[x] = d;
                        label[x] = static_cast<int>(k);
                    }
                }
            }
        }
        std::vector<double> sums(centres.size() * 6, 0.0);
        for (int y = 0; y < lab.rows; ++y) {
            const cv::Vec3f* row = lab.ptr<cv::Vec3f>(y);
            const int* label = labels.ptr<int>(y);
            for (int x = 0; x < lab.cols; ++x) {
                double* s = &sums[static_cast<std::size_t>(label[x]) * 6];
                s[0] += row[x][0], s[1] += row[x][1], s[2] += row[x][2], s[3] += x, s[4] += y, s[5] += 1;
            }
        }
        for (std::size_t k = 0; k < centres.size(); ++k) {
            const double* s = &sums[k * 6];
            if (s[5] > 0)
                centres[k] = {float(s[0] / s[5]), float(s[1] / s[5]), float(s[2] / s[5]), float(s[3] / s[5]), float(s[4] / s[5])};
        }
    }
    return labels;
}

cv::Mat SuperpixelMap::enforceConnectivity(const cv::Mat& labels, int minSize, int* count)
{
    // Relabel 4-connected pieces in scan order; a piece smaller than minSize joins the piece met
    // just before it (its left or upper neighbour), as in the reference SLIC implementation.
    cv::Mat out(labels.size(), CV_32SC1, cv::Scalar(-1));
    const cv::Point offsets[4] = {{-1, 0}, {0, -1}, {1, 0}, {0, 1}};
    std::vector<cv::Point> piece;
    int next = 0;
    for (int y = 0; y < labels.rows; ++y) {
        for (int x = 0; x < labels.cols; ++x) {
            if (out.at<int>(y, x) >= 0)
                continue;
            int adjacent = -1;
            for (const cv::Point& o : offsets) {
                const cv::Point q(x + o.x, y + o.y);
                if (q.x >= 0 && q.y >= 0 && q.x < labels.cols && q.y < labels.rows && out.at<int>(q) >= 0)
                    adjacent = out.at<int>(q);
            }
            const int original = labels.at<int>(y, x);
            piece.assign(1, cv::Point(x, y));
            out.at<int>(y, x) = next;
            for (std::size_t i = 0; i < piece.size(); ++i) {
                for (const cv::Point& o : offsets) {
                    const cv::Point q = piece[i] + o;
                    if (q.x < 0 || q.y < 0 || q.x >= labels.cols || q.y >= labels.rows)
                        continue;
                    if (out.at<int>(q) < 0 && labels.at<int>(q) == original) {
                        out.at<int>(q) = next;
                        piece.push_back(q);
                    }
                }
            }
            if (static_cast<int>(piece.size()) < minSize && adjacent >= 0) {
                for (const cv::Point& p : piece)
                    out.at<int>(p) = adjacent;
            } else {
                ++next;
            }
        }
    }
    *count = next;
    return out;
}

int SuperpixelMap::idAt(cv::Point p) const
{
    if (m_ids.empty() || !cv::Rect(0, 0, m_ids.cols, m_ids.rows).contains(p))
        return -1;
    return m_ids.at<int>(p);
}

RegionMask SuperpixelMap::region(const std::vector<int>& ids) const
{
    cv::Rect bounds;
    for (const int id : ids) {
        if (id >= 0 && id < count())
            bounds |= m_bounds[static_cast<std::size_t>(id)];
    }
    if (bounds.empty())
        return {};
    cv::Mat mask = cv::Mat::zeros(bounds.size(), CV_8UC1);
    for (const int id : ids) {
        if (id < 0 || id >= count())
            continue;
        const cv::Rect r = m_bounds[static_cast<std::size_t>(id)];
        cv::Mat part = mask(r - bounds.tl());
        part.setTo(255, m_ids(r) == id);
    }
    return {bounds, mask};
}

}  // namespace segstudio::paint
