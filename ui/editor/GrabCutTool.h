#pragma once

#include "AbstractTool.h"

#include "paint/RegionMask.h"

#include <QRect>
#include <QRgb>

namespace segstudio::ui {

// Smart region with GrabCut, seeded either way the issue asks for:
// - drag a rectangle around an object;
// - or paint a few strokes: Shift+drag marks the object, Ctrl+drag marks background (brush size
//   sets the stroke width). The segmentation reruns after each stroke.
// The result is previewed (tinted) until Enter or a plain click inside applies it; Esc or a new
// rectangle discards it and the strokes. Applying is one undo entry.
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

    QString toolTip() const override;
    bool hasPreview() const { return !m_preview.empty(); }
    const paint::RegionMask& preview() const { return m_preview; }  // for tests
    void apply();
    void discard();

private:
    enum class Drag { None, Rectangle, Foreground, Background };

    void segmentRectangle();
    void segmentStrokes();
    void addStrokeSegment(const QPoint& from, const QPoint& to);
    void clearStrokes();
    void reportResult(const QString& failure);
    static void paintMask(QPainter& painter, const cv::Mat& mask, const cv::Point& at, QRgb colour);

    QPoint m_start;
    QPoint m_last;
    QRect m_dragRect;
    Drag m_drag = Drag::None;
    paint::RegionMask m_preview;
    cv::Mat m_foreground;  // seed strokes, image-sized, nonzero where stroked; empty when none
    cv::Mat m_background;
    cv::Rect m_foregroundBounds;
    cv::Rect m_backgroundBounds;
};

}  // namespace segstudio::ui
