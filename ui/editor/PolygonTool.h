#pragma once

#include "AbstractTool.h"

#include <QPointF>
#include <QVector>

namespace segstudio::ui::editor {

// Polygon fill and freehand lasso in one tool: clicks add vertices (close by clicking the first
// vertex, double-clicking or Enter; Esc cancels); pressing and dragging draws a lasso that fills
// on release. Filling uses cv::fillPoly semantics (paint::RegionMask::polygon).
class PolygonTool : public AbstractTool {
    Q_OBJECT

public:
    explicit PolygonTool(ToolSettings* settings, QObject* parent = nullptr);
    QString toolTip() const override;

    void deactivate() override;
    void documentChanged() override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseMoved(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseReleased(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseDoubleClicked(QMouseEvent* event, const QPointF& imagePos) override;
    bool keyPressed(QKeyEvent* event) override;
    void paintOverlay(QPainter& painter) override;

private:
    void close();
    void cancel();
    bool nearFirstVertex(const QPointF& imagePos) const;

    QVector<QPoint> m_points;
    QPointF m_cursor;
    bool m_pressed = false;
    bool m_lasso = false;
    QPointF m_pressPos;
};

}  // namespace segstudio::ui::editor
