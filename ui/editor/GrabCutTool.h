#pragma once

#include "AbstractTool.h"

#include "paint/RegionMask.h"

#include <QFutureWatcher>
#include <QImage>
#include <QRect>
#include <QRgb>

namespace segstudio::ui::editor {

// Smart region with GrabCut, seeded either way the issue asks for:
// - drag a rectangle around an object;
// - or paint a few strokes: Shift+drag marks the object, Ctrl+drag marks background (brush size
//   sets the stroke width). The segmentation reruns after each stroke.
// The result is previewed (tinted) until Enter or a plain click inside applies it; Esc or a new
// rectangle discards it and the strokes. Applying is one undo entry.
// GrabCut runs on a worker (hundreds of ms on a large object): the canvas stays responsive, a
// newer seed, Esc or another image makes a running result stale and it is dropped; Enter while it
// runs applies the result when it comes.
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
    bool isSegmenting() const { return m_pending; }  // a region is being found for the current seed
    void waitForSegmentation();  // blocks until the running GrabCut has delivered (tests, benchmarks)
    void apply();
    void discard();

private:
    enum class Drag { None, Rectangle, Foreground, Background };

    void segmentRectangle();
    void segmentStrokes();
    void addStrokeSegment(const QPoint& from, const QPoint& to);
    void clearStrokes();
    void reportResult(const QString& failure);
    void startSegmentation(std::function<paint::RegionMask()> job, const QString& failure);
    void segmentationFinished();
    static void paintMask(QPainter& painter, const cv::Mat& mask, const cv::Point& at, QRgb colour);

    QPoint m_start;
    QPoint m_last;
    QRect m_dragRect;
    Drag m_drag = Drag::None;
    paint::RegionMask m_preview;
    struct Found {
        paint::RegionMask region;
        QImage tint;  // the preview as drawn, made on the worker too: a 12 MP region is tens of ms
        QImage smallTint;  // the same at the view's scale when minified (Qt's smooth scaling of the
        double smallScale = 0;  // full tint costs the GUI thread ~30 ms at fit to window)
    };
    QFutureWatcher<Found> m_job;
    QImage m_previewTint;
    QImage m_previewSmallTint;
    double m_previewSmallScale = 0;
    int m_generation = 0;     // bumped by every new seed, discard and image: older results are stale
    int m_jobGeneration = 0;  // the generation the running job was started for
    QString m_jobFailure;     // said when it finds nothing
    bool m_applyWhenReady = false;
    bool m_pending = false;  // the current seed's region has not come yet
    cv::Mat m_foreground;  // seed strokes, image-sized, nonzero where stroked; empty when none
    cv::Mat m_background;
    cv::Rect m_foregroundBounds;
    cv::Rect m_backgroundBounds;
};

}  // namespace segstudio::ui::editor
