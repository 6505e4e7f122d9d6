#include "ThinStrokeTool.h"

#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "ToolSettings.h"

#include "data/labels/LabelClass.h"
#include "paint/StrokeSegmenter.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace segstudio::ui::editor {

ThinStrokeTool::ThinStrokeTool(ToolSettings* settings, QObject* parent)
    : AbstractTool(tr("Thin Stroke"), settings, parent)
{
}

QString ThinStrokeTool::toolTip() const
{
    return tr("Thin stroke: drag along a pole, a post or a sign's stem to give it the current class; it follows the "
              "image's edges within the brush's width ([ and ] change it). Shift+drag takes back");
}

void ThinStrokeTool::activate(LabelCanvas* canvas)
{
    AbstractTool::activate(canvas);
    emit message(tr("Thin stroke: drag along a thin object, the brush about twice its width ([ and ])"));
}

void ThinStrokeTool::deactivate()
{
    m_path.clear();
    AbstractTool::deactivate();
}

void ThinStrokeTool::documentChanged()
{
    m_path.clear();
    requestRepaint();
}

int ThinStrokeTool::corridor() const { return std::max(2, settings()->brushSize() / 2); }

void ThinStrokeTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton || !document() || document()->editing())
        return;
    m_path = {pixelOf(imagePos)};
    m_takeBack = event->modifiers() & Qt::ShiftModifier;
    requestRepaint();
}

void ThinStrokeTool::mouseMoved(QMouseEvent* event, const QPointF& imagePos)
{
    if (m_path.isEmpty() || !(event->buttons() & Qt::LeftButton))
        return;
    const QPoint pixel = pixelOf(imagePos);
    if (pixel != m_path.last()) {
        m_path << pixel;
        requestRepaint();
    }
}

void ThinStrokeTool::mouseReleased(QMouseEvent* event, const QPointF& imagePos)
{
    if (m_path.isEmpty() || event->button() != Qt::LeftButton)
        return;
    // The release's own pixel ends the drag (mouseMoved no longer sees the button held here).
    if (pixelOf(imagePos) != m_path.last())
        m_path << pixelOf(imagePos);
    std::vector<cv::Point> path;
    for (const QPoint& p : m_path)
        path.emplace_back(p.x(), p.y());
    m_path.clear();
    strokeAlong(path, m_takeBack);
    requestRepaint();
}

std::int64_t ThinStrokeTool::strokeAlong(const std::vector<cv::Point>& path, bool takeBack)
{
    LabelDocument* doc = document();
    if (!doc || path.empty())
        return 0;
    paint::StrokeSegmenter::Parameters parameters;
    parameters.corridor = corridor();
    paint::RegionMask region = paint::StrokeSegmenter::region(doc->image(), path, parameters);
    const int classId = settings()->currentClass();
    if (takeBack && !region.empty())
        region.mask &= doc->labels()(region.bounds) == classId;
    if (region.empty() || region.area() == 0) {
        emit message(takeBack ? tr("Thin stroke: nothing of the current class to take back here.")
                              : tr("Thin stroke: the drag missed the image."));
        return 0;
    }
    const std::int64_t changed =
        doc->paintRegion(region, takeBack ? data::kUnlabelled : std::uint8_t(classId), settings()->guard(),
                         takeBack ? tr("Thin stroke (take back)") : tr("Thin stroke"));
    emit message(takeBack ? tr("Thin stroke took back %n pixel(s).", nullptr, int(changed))
                          : tr("Thin stroke labelled %n pixel(s).", nullptr, int(changed)));
    return changed;
}

void ThinStrokeTool::paintOverlay(QPainter& painter)
{
    if (m_path.isEmpty())
        return;
    // The band the structure may fill, then the drag itself.
    QPolygonF centres;
    for (const QPoint& p : m_path)
        centres << QPointF(p) + QPointF(0.5, 0.5);
    painter.setPen(QPen(QColor(255, 255, 255, 70), 2 * corridor() + 1, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.drawPolyline(centres);
    painter.setPen(QPen(m_takeBack ? Qt::red : Qt::white, 0));
    painter.drawPolyline(centres);
}

}  // namespace segstudio::ui::editor
