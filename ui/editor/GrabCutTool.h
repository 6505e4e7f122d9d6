#pragma once

#include "AbstractTool.h"

#include "paint/RegionMask.h"

#include <QRect>

namespace segstudio::ui {

// Smart region: drag a rectangle around an object, GrabCut finds it, and the result is previewed
// (hatched in the class colour) until Enter or a click inside applies it; Esc or a new rectangle
// discards it. Applying is one undo entry.
class GrabCutTool : public AbstractTool {
    Q_OBJECT

public:
    explicit GrabCutTool(ToolSettings* settings, QObject* parent = nullptr);

    void deactivate() override;
    void documentChanged() override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseMoved(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseReleased(QMouseEvent* event, const QPointF& imagePos) override;
    bool keyPressed(QKeyEvent* event) override;
    void paintOverlay(QPainter& painter) override;

    bool hasPreview() const { return !m_preview.empty(); }
    void apply();
    void discard();

private:
    QPoint m_start;
    QRect m_dragRect;
    bool m_dragging = false;
    paint::RegionMask m_preview;
};

}  // namespace segstudio::ui
