#include "GrabCutTool.h"

#include "LabelDocument.h"
#include "ToolSettings.h"

#include "paint/GrabCutSegmenter.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace segstudio::ui {

namespace {

QPoint pixelOf(const QPointF& p) { return QPoint(static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y()))); }

}  // namespace

GrabCutTool::GrabCutTool(ToolSettings* settings, QObject* parent) : AbstractTool(tr("Smart region"), settings, parent) {}

void GrabCutTool::deactivate()
{
    discard();
    m_dragging = false;
    AbstractTool::deactivate();
}

void GrabCutTool::documentChanged()
{
    m_preview = {};
    m_dragging = false;
}

void GrabCutTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton)
        return;
    const QPoint p = pixelOf(imagePos);
    if (hasPreview() && m_preview.bounds.contains(cv::Point(p.x(), p.y()))) {
        apply();
        return;
    }
    discard();
    m_start = p;
    m_dragRect = QRect(p, p);
    m_dragging = true;
}

void GrabCutTool::mouseMoved(QMouseEvent*, const QPointF& imagePos)
{
    if (!m_dragging)
        return;
    m_dragRect = QRect(m_start, pixelOf(imagePos)).normalized();
    requestRepaint();
}

void GrabCutTool::mouseReleased(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton || !m_dragging)
        return;
    m_dragging = false;
    m_dragRect = QRect(m_start, pixelOf(imagePos)).normalized();
    LabelDocument* doc = document();
    if (!doc || doc->image().empty())
        return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    m_preview = paint::GrabCutSegmenter::fromRect(
        doc->image(), cv::Rect(m_dragRect.x(), m_dragRect.y(), m_dragRect.width(), m_dragRect.height()));
    QApplication::restoreOverrideCursor();
    emit message(hasPreview() ? tr("Enter or click inside applies the region, Esc discards it")
                              : tr("GrabCut found no object in that rectangle"));
    requestRepaint();
}

bool GrabCutTool::keyPressed(QKeyEvent* event)
{
    if (!hasPreview())
        return false;
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        apply();
        return true;
    }
    if (event->key() == Qt::Key_Escape) {
        discard();
        return true;
    }
    return false;
}

void GrabCutTool::apply()
{
    if (!hasPreview() || !document())
        return;
    const paint::RegionMask region = std::move(m_preview);
    m_preview = {};
    document()->paintRegion(region, static_cast<std::uint8_t>(settings()->currentClass()), settings()->guard(),
                            tr("Smart region"));
    requestRepaint();
}

void GrabCutTool::discard()
{
    if (!hasPreview())
        return;
    m_preview = {};
    requestRepaint();
}

void GrabCutTool::paintOverlay(QPainter& painter)
{
    QPen pen(Qt::cyan);
    pen.setCosmetic(true);
    pen.setStyle(Qt::DashLine);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    if (m_dragging)
        painter.drawRect(QRectF(m_dragRect.x(), m_dragRect.y(), m_dragRect.width() + 1, m_dragRect.height() + 1));
    if (!hasPreview())
        return;
    QImage mask(m_preview.bounds.width, m_preview.bounds.height, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < m_preview.mask.rows; ++y) {
        auto* out = reinterpret_cast<QRgb*>(mask.scanLine(y));
        const auto* in = m_preview.mask.ptr<std::uint8_t>(y);
        for (int x = 0; x < m_preview.mask.cols; ++x)
            out[x] = in[x] ? qRgba(0, 160, 160, 160) : qRgba(0, 0, 0, 0);
    }
    painter.drawImage(QPointF(m_preview.bounds.x, m_preview.bounds.y), mask);
}

}  // namespace segstudio::ui
