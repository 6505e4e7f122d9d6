#include "PolygonTool.h"

#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "ToolSettings.h"

#include "paint/RegionMask.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace segstudio::ui::editor {

namespace {

// Pixels within this many screen pixels of the first vertex close the polygon.
constexpr double kCloseDistance = 6.0;
// A press that moves further than this (screen pixels) becomes a lasso.
constexpr double kLassoThreshold = 4.0;

}  // namespace

PolygonTool::PolygonTool(ToolSettings* settings, QObject* parent) : AbstractTool(tr("Polygon"), settings, parent) {}

void PolygonTool::deactivate()
{
    cancel();
    AbstractTool::deactivate();
}

void PolygonTool::documentChanged() { cancel(); }

bool PolygonTool::nearFirstVertex(const QPointF& imagePos) const
{
    if (m_points.size() < 3 || !canvas())
        return false;
    const QPointF first = canvas()->mapFromImage(QPointF(m_points.first()) + QPointF(0.5, 0.5));
    const QPointF here = canvas()->mapFromImage(imagePos);
    return std::hypot(first.x() - here.x(), first.y() - here.y()) <= kCloseDistance;
}

void PolygonTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() == Qt::RightButton) {
        cancel();
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    if (nearFirstVertex(imagePos)) {
        close();
        return;
    }
    m_pressed = true;
    m_pressPos = imagePos;
    m_lasso = false;
    m_points.append(pixelOf(imagePos));
    requestRepaint();
}

void PolygonTool::mouseMoved(QMouseEvent*, const QPointF& imagePos)
{
    m_cursor = imagePos;
    if (m_pressed && canvas()) {
        const QPointF delta = canvas()->mapFromImage(imagePos) - canvas()->mapFromImage(m_pressPos);
        // Only a drag that starts a new outline becomes a lasso; dragging mid-polygon just clicks.
        if (!m_lasso && m_points.size() == 1 && std::hypot(delta.x(), delta.y()) > kLassoThreshold)
            m_lasso = true;
        if (m_lasso && pixelOf(imagePos) != m_points.last())
            m_points.append(pixelOf(imagePos));
    }
    if (!m_points.isEmpty())
        requestRepaint();
}

void PolygonTool::mouseReleased(QMouseEvent* event, const QPointF&)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    if (m_lasso)
        close();
}

void PolygonTool::mouseDoubleClicked(QMouseEvent*, const QPointF&)
{
    // The double click's first press already added its vertex.
    close();
}

bool PolygonTool::keyPressed(QKeyEvent* event)
{
    if (m_points.isEmpty())
        return false;
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        close();
        return true;
    }
    if (event->key() == Qt::Key_Escape) {
        cancel();
        return true;
    }
    if (event->key() == Qt::Key_Backspace) {
        m_points.removeLast();
        requestRepaint();
        return true;
    }
    return false;
}

void PolygonTool::close()
{
    std::vector<cv::Point> points;
    for (const QPoint& p : m_points) {
        if (points.empty() || points.back() != cv::Point(p.x(), p.y()))
            points.emplace_back(p.x(), p.y());
    }
    const bool lasso = m_lasso;
    cancel();
    if (points.size() < 3 || !document())
        return;
    const auto region = paint::RegionMask::polygon(document()->size(), points);
    document()->paintRegion(region, static_cast<std::uint8_t>(settings()->currentClass()), settings()->guard(),
                            lasso ? tr("Lasso fill") : tr("Polygon fill"));
}

void PolygonTool::cancel()
{
    const bool had = !m_points.isEmpty();
    m_points.clear();
    m_pressed = false;
    m_lasso = false;
    if (had)
        requestRepaint();
}

void PolygonTool::paintOverlay(QPainter& painter)
{
    if (m_points.isEmpty())
        return;
    QPen pen(Qt::yellow);
    pen.setCosmetic(true);
    pen.setWidth(2);
    painter.setPen(pen);
    QPolygonF outline;
    for (const QPoint& p : m_points)
        outline << QPointF(p) + QPointF(0.5, 0.5);
    if (!m_lasso)
        outline << m_cursor;
    painter.drawPolyline(outline);
}

QString PolygonTool::toolTip() const
{
    return tr("Polygon: click the corners and close with a click on the first one, a double click or Enter; "
              "or press and drag a freehand lasso. Esc cancels");
}

}  // namespace segstudio::ui::editor
