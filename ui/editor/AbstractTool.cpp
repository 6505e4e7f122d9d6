#include "AbstractTool.h"

#include <cmath>

#include "LabelCanvas.h"

namespace segstudio::ui::editor {

AbstractTool::AbstractTool(const QString& name, ToolSettings* settings, QObject* parent)
    : QObject(parent), m_name(name), m_settings(settings)
{
}

void AbstractTool::activate(LabelCanvas* canvas) { m_canvas = canvas; }

void AbstractTool::deactivate()
{
    requestRepaint();
    m_canvas = nullptr;
}

void AbstractTool::mouseMoved(QMouseEvent*, const QPointF&) {}
void AbstractTool::mouseReleased(QMouseEvent*, const QPointF&) {}
void AbstractTool::mouseDoubleClicked(QMouseEvent*, const QPointF&) {}
bool AbstractTool::keyPressed(QKeyEvent*) { return false; }
void AbstractTool::paintOverlay(QPainter&) {}
void AbstractTool::documentChanged() {}

LabelDocument* AbstractTool::document() const { return m_canvas ? m_canvas->document() : nullptr; }

void AbstractTool::requestRepaint()
{
    if (m_canvas)
        m_canvas->update();
}

QPoint AbstractTool::pixelOf(const QPointF& imagePos)
{
    return {int(std::floor(imagePos.x())), int(std::floor(imagePos.y()))};
}

}  // namespace segstudio::ui::editor
