#include "BrushTool.h"

#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "ToolSettings.h"

#include "data/labels/LabelClass.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace segstudio::ui::editor {

namespace {

cv::Point toCv(const QPoint& p) { return {p.x(), p.y()}; }

}  // namespace

BrushTool::BrushTool(bool eraser, ToolSettings* settings, QObject* parent)
    : AbstractTool(eraser ? tr("Eraser") : tr("Brush"), settings, parent), m_eraser(eraser)
{
}

std::uint8_t BrushTool::value() const
{
    return m_eraser ? data::kUnlabelled : static_cast<std::uint8_t>(settings()->currentClass());
}

void BrushTool::deactivate()
{
    if (m_last && document())
        document()->endEdit(name());
    m_last.reset();
    m_hover.reset();
    AbstractTool::deactivate();
}

void BrushTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton || !document())
        return;
    m_brush = settings()->brush();
    const QPoint p = pixelOf(imagePos);
    LabelDocument* doc = document();
    doc->beginEdit();
    cv::Mat& labels = doc->touch(m_brush.dabRect(toCv(p)));
    doc->notifyChanged(m_brush.stamp(labels, toCv(p), value(), settings()->guard()));
    m_last = p;
}

void BrushTool::mouseMoved(QMouseEvent*, const QPointF& imagePos)
{
    const QPoint p = pixelOf(imagePos);
    const QPoint previousHover = m_hover.value_or(p);
    m_hover = p;
    if (m_last && document() && *m_last != p) {
        LabelDocument* doc = document();
        cv::Mat& labels = doc->touch(m_brush.strokeRect(toCv(*m_last), toCv(p)));
        doc->notifyChanged(m_brush.stroke(labels, toCv(*m_last), toCv(p), value(), settings()->guard()));
        m_last = p;
    }
    repaintCursor(previousHover, p);
}

// The outline stays where the cursor was otherwise, as if it were still there.
void BrushTool::mouseLeft()
{
    m_hover.reset();
    requestRepaint();
}

void BrushTool::mouseReleased(QMouseEvent* event, const QPointF&)
{
    if (event->button() != Qt::LeftButton || !m_last)
        return;
    m_last.reset();
    if (document())
        document()->endEdit(m_eraser ? tr("Erase") : tr("Brush stroke"));
}

bool BrushTool::keyPressed(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && m_last && document()) {
        document()->cancelEdit();
        m_last.reset();
        return true;
    }
    return false;
}

void BrushTool::paintOverlay(QPainter& painter)
{
    if (!m_hover)
        return;
    const paint::Brush brush = settings()->brush();
    const cv::Rect r = brush.dabRect(toCv(*m_hover));
    QPen pen(m_eraser ? Qt::white : Qt::black);
    pen.setCosmetic(true);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    const QRectF rect(r.x, r.y, r.width, r.height);
    if (brush.shape() == paint::BrushShape::Round)
        painter.drawEllipse(rect);
    else
        painter.drawRect(rect);
}

void BrushTool::repaintCursor(const QPoint& from, const QPoint& to)
{
    if (!canvas())
        return;
    const paint::Brush brush = settings()->brush();
    const cv::Rect r = brush.strokeRect(toCv(from), toCv(to));
    canvas()->update(canvas()->widgetRectOf(QRect(r.x, r.y, r.width, r.height).adjusted(-2, -2, 2, 2)));
}

QString BrushTool::toolTip() const
{
    return m_eraser ? tr("Eraser: drag to make pixels unlabelled; [ and ] change the size")
                    : tr("Brush: drag to paint the current class; [ and ] change the size, locked classes are kept");
}

}  // namespace segstudio::ui::editor
