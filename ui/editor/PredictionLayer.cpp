#include "PredictionLayer.h"

#include "paint/ColourScale.h"

#include <type_traits>

#include <algorithm>

namespace segstudio::ui::editor {

void PredictionLayer::setMaps(const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy, const cv::Mat& scores)
{
    m_scores = classes.empty() ? cv::Mat() : scores;
    m_classes = classes;
    m_confidence = confidence;
    m_entropy = entropy;
    m_image = classes.empty() ? QImage() : QImage(classes.cols, classes.rows, QImage::Format_ARGB32_Premultiplied);
    m_tilesX = (classes.cols + kTile - 1) / kTile;
    const int tilesY = (classes.rows + kTile - 1) / kTile;
    m_composed.assign(std::size_t(std::max(0, m_tilesX * tilesY)), false);
}

void PredictionLayer::setView(View view)
{
    if (view != m_view) {
        m_view = view;
        invalidate();
    }
}

void PredictionLayer::setColors(const std::array<QRgb, 256>& colors)
{
    m_colors = colors;
    invalidate();
}

void PredictionLayer::invalidate() { std::fill(m_composed.begin(), m_composed.end(), false); }

void PredictionLayer::invalidate(const QRect& rect)
{
    if (m_image.isNull())
        return;
    const QRect area = rect & m_image.rect();
    if (area.isEmpty())
        return;
    for (int ty = area.top() / kTile; ty <= area.bottom() / kTile; ++ty)
        for (int tx = area.left() / kTile; tx <= area.right() / kTile; ++tx)
            m_composed[std::size_t(ty) * std::size_t(m_tilesX) + std::size_t(tx)] = false;
}

const QImage& PredictionLayer::composed(const QRect& rect)
{
    const QRect area = rect & m_image.rect();
    if (area.isEmpty() || m_view == View::Off)
        return m_image;
    for (int ty = area.top() / kTile; ty <= area.bottom() / kTile; ++ty)
        for (int tx = area.left() / kTile; tx <= area.right() / kTile; ++tx) {
            const std::size_t index = std::size_t(ty) * std::size_t(m_tilesX) + std::size_t(tx);
            if (!m_composed[index]) {
                composeTile(QRect(tx * kTile, ty * kTile, kTile, kTile) & m_image.rect());
                m_composed[index] = true;
            }
        }
    return m_image;
}

void PredictionLayer::composeTile(const QRect& rect)
{
    const bool haveTruth = m_truth && !m_truth->empty() && m_truth->size() == m_classes.size();
    const cv::Mat& heat = m_view == View::Uncertainty ? m_entropy : m_confidence;
    constexpr QRgb kClear = 0;
    static_assert(std::is_same_v<QRgb, std::uint32_t>, "QRgb is 0xAARRGGBB in 32 bits, as the scale's colours");
    const std::array<QRgb, 256>& heatColours = paint::ColourScale::turboTable();
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        const std::uint8_t* predicted = m_classes.ptr<std::uint8_t>(y);
        const std::uint8_t* truth = haveTruth ? m_truth->ptr<std::uint8_t>(y) : nullptr;
        const std::uint8_t* value = heat.empty() ? nullptr : heat.ptr<std::uint8_t>(y);
        auto* out = reinterpret_cast<QRgb*>(m_image.scanLine(y));
        for (int x = rect.left(); x <= rect.right(); ++x) {
            const std::uint8_t p = predicted[x];
            const bool visible = qAlpha(m_colors[p]) != 0;
            switch (m_view) {
            case View::Classes:
                out[x] = m_colors[p];
                break;
            case View::Errors:
                out[x] = truth && truth[x] != 255 && truth[x] != p && visible && qAlpha(m_colors[truth[x]]) != 0
                             ? kErrorColor
                             : kClear;
                break;
            case View::Confidence:
            case View::Uncertainty:
                out[x] = value && visible ? heatColours[value[x]] : kClear;
                break;
            case View::Off:
                out[x] = kClear;
                break;
            }
        }
    }
}

std::optional<PredictionLayer::Pixel> PredictionLayer::at(const QPoint& pixel) const
{
    if (m_classes.empty() || pixel.x() < 0 || pixel.y() < 0 || pixel.x() >= m_classes.cols || pixel.y() >= m_classes.rows)
        return std::nullopt;
    const double confidence = m_confidence.empty() ? 1.0 : m_confidence.at<std::uint8_t>(pixel.y(), pixel.x()) / 255.0;
    return Pixel{m_classes.at<std::uint8_t>(pixel.y(), pixel.x()), confidence};
}

}  // namespace segstudio::ui::editor
