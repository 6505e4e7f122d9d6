#pragma once

#include "AbstractTool.h"

#include "paint/Brush.h"

#include <QPoint>

#include <optional>

namespace segstudio::ui::editor {

// Brush and eraser (the eraser paints 255, unlabelled). One press-drag-release is one undo entry;
// consecutive mouse positions are joined by Brush::stroke so fast strokes leave no gaps.
class BrushTool : public AbstractTool {
    Q_OBJECT

public:
    BrushTool(bool eraser, ToolSettings* settings, QObject* parent = nullptr);
    QString toolTip() const override;

    void deactivate() override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseMoved(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseReleased(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseLeft() override;
    bool keyPressed(QKeyEvent* event) override;
    void paintOverlay(QPainter& painter) override;

private:
    std::uint8_t value() const;
    void repaintCursor(const QPoint& from, const QPoint& to);

    bool m_eraser;
    paint::Brush m_brush;
    std::optional<QPoint> m_last;   // last stamped pixel while stroking
    std::optional<QPoint> m_hover;  // for the brush outline
};

}  // namespace segstudio::ui::editor
