#include "Brush.h"

#include "WriteGuard.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>

namespace segstudio::paint {

Brush::Brush(int size, BrushShape shape) : m_size(std::max(1, size)), m_shape(shape)
{
    const int half = m_size / 2;
    if (m_shape == BrushShape::Round) {
        m_tip = cv::Mat::zeros(2 * half + 1, 2 * half + 1, CV_8UC1);
        cv::circle(m_tip, {half, half}, half, cv::Scalar(255), cv::FILLED, cv::LINE_8);
    } else {
        m_tip = cv::Mat(m_size, m_size, CV_8UC1, cv::Scalar(255));
    }
    m_anchor = {half, half};
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
