#include "Brush.h"

#include "WriteGuard.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>

namespace segstudio::paint {

Brush::Brush(int size, BrushShape shape) : m_size(std::max(1, size)), m_shape(shape)
{
    const int n = m_size;
    if (m_shape == BrushShape::Round) {
        // In doubled coordinates the tip's centre is at n - 1 (a pixel centre for odd n, a pixel
        // corner for even n), so one integer test covers both: a pixel is in when its centre lies
        // within n / 2 of the tip's centre. cv::circle takes an integer radius, which made an
        // even size paint like the next odd one.
        m_tip = cv::Mat::zeros(n, n, CV_8UC1);
        for (int j = 0; j < n; ++j) {
            const int dy = 2 * j - (n - 1);
            for (int i = 0; i < n; ++i) {
                const int dx = 2 * i - (n - 1);
                if (dx * dx + dy * dy <= n * n)
                    m_tip.at<std::uint8_t>(j, i) = 255;
            }
        }
    } else {
        m_tip = cv::Mat(n, n, CV_8UC1, cv::Scalar(255));
    }
    m_anchor = {n / 2, n / 2};
}

cv::Rect Brush::dabRect(cv::Point center) const
{
    return {center - m_anchor, m_tip.size()};
}

cv::Rect Brush::strokeRect(cv::Point from, cv::Point to) const
{
    return dabRect(from) | dabRect(to);
}

cv::Rect Brush::stamp(cv::Mat& labels, cv::Point center, std::uint8_t value, const WriteGuard& guard) const
{
    CV_Assert(labels.type() == CV_8UC1);
    const cv::Rect dab = dabRect(center);
    const cv::Rect clipped = dab & cv::Rect(0, 0, labels.cols, labels.rows);
    if (clipped.empty())
        return {};
    const auto& writable = guard.table();
    for (int y = clipped.y; y < clipped.br().y; ++y) {
        const std::uint8_t* tipRow = m_tip.ptr<std::uint8_t>(y - dab.y) - dab.x;
        std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        for (int x = clipped.x; x < clipped.br().x; ++x) {
            if (tipRow[x] && writable[row[x]])
                row[x] = value;
        }
    }
    return clipped;
}

cv::Rect Brush::stroke(cv::Mat& labels, cv::Point from, cv::Point to, std::uint8_t value, const WriteGuard& guard) const
{
    if (from == to)
        return {};
    // The point-only iterator does not clip to the image: a dab centred just outside still
    // reaches in, and stamp() clips each dab itself.
    cv::LineIterator it(from, to, 8);
    cv::Rect changed;
    ++it;  // `from` was stamped by the previous segment
    for (int i = 1; i < it.count; ++i, ++it)
        changed |= stamp(labels, it.pos(), value, guard);
    return changed;
}

}  // namespace segstudio::paint
