#include "PolygonFill.h"

#include <algorithm>
#include <cmath>

namespace segstudio::data {

void fillPolygonByCentres(cv::Mat& labels, const std::vector<cv::Point2d>& polygon, std::uint8_t value)
{
    if (polygon.size() < 3)
        return;
    double top = polygon[0].y, bottom = polygon[0].y;
    for (const auto& p : polygon) {
        top = std::min(top, p.y);
        bottom = std::max(bottom, p.y);
    }
    const int firstRow = std::max(0, int(std::ceil(top - 0.5)));
    const int lastRow = std::min(labels.rows - 1, int(std::floor(bottom - 0.5)));
    std::vector<double> crossings;
    for (int row = firstRow; row <= lastRow; ++row) {
        const double y = row + 0.5;
        crossings.clear();
        for (std::size_t i = 0; i < polygon.size(); ++i) {
            const cv::Point2d& a = polygon[i];
            const cv::Point2d& b = polygon[(i + 1) % polygon.size()];
            // Half-open in y: an edge counts for a <= y < b (either direction), so a vertex on the
            // scan line is crossed once, and horizontal edges never.
            if ((a.y <= y && y < b.y) || (b.y <= y && y < a.y))
                crossings.push_back(a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y));
        }
        std::sort(crossings.begin(), crossings.end());
        auto* line = labels.ptr<std::uint8_t>(row);
        for (std::size_t k = 0; k + 1 < crossings.size(); k += 2) {
            // Centres x + 0.5 in [left, right).
            const int from = std::max(0, int(std::ceil(crossings[k] - 0.5)));
            const int to = std::min(labels.cols, int(std::ceil(crossings[k + 1] - 0.5)));
            for (int x = from; x < to; ++x)
                line[x] = value;
        }
    }
}

}  // namespace segstudio::data
