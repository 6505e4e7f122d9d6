#pragma once

#include "AbstractTool.h"

#include "paint/RegionMask.h"
#include "paint/SmartClickSegmenter.h"
#include "paint/SmartClickSession.h"

#include <QFutureWatcher>
#include <QImage>
#include <QPoint>
#include <QTimer>

#include <memory>
#include <optional>

namespace segstudio::ui::editor {

// Smart click (key C): a click labels the whole region the user means, found by
// paint::SmartClickSegmenter from the selected run's prediction of the image (its per-class
// scores) and the image's edges. Plain click adds to the region, Shift+click takes back, Ctrl+click
// uses the model's class under the cursor instead of the selected one. Clicks of one class build
// one region (a paint::SmartClickSession): each click is one undo entry, and a Shift+click gives
// back exactly what the region had taken. Any other edit, another class or image starts afresh.
// The region a click would give is shown under the cursor before the click, and only while the
// cursor is over the image: leaving the canvas, another image or another tool clears it.
// The segmenter's per-image work runs on a worker when the prediction comes; without a prediction
// (no run has a checkpoint yet) the clicks seed GrabCut instead, and the hint says so.
class SmartClickTool : public AbstractTool {
    Q_OBJECT

public:
    explicit SmartClickTool(ToolSettings* settings, QObject* parent = nullptr);
    ~SmartClickTool() override;

    QString toolTip() const override;
    void activate(LabelCanvas* canvas) override;
    void deactivate() override;
    void documentChanged() override;
    void predictionChanged() override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseMoved(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseLeft() override;
    void paintOverlay(QPainter& painter) override;

    bool usesModel() const { return m_segmenter != nullptr; }  // false: GrabCut fallback
    bool isPreparing() const { return m_watcher.isRunning(); }
    void waitUntilReady();  // tests and scripts
    const paint::RegionMask& hoverPreview() const { return m_hover; }
    // The hover preview for an image pixel, computed now (the tool otherwise waits for the mouse
    // to rest a moment); for tests.
    void previewAt(const QPoint& pixel, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    const std::optional<paint::SmartClickSession>& session() const { return m_session; }

private:
    void prepare();
    void takeSegmenter();
    void endSession();
    void updateHover();
    void clearHover();
    int classFor(const QPoint& pixel, Qt::KeyboardModifiers modifiers) const;
    paint::SmartClickSession::RegionFinder finder() const;
    paint::RegionMask regionFor(const QPoint& pixel, Qt::KeyboardModifiers modifiers) const;
    void click(const QPoint& pixel, Qt::KeyboardModifiers modifiers);
    bool inSessionRegion(const cv::Point& pixel) const;
    void takeBackAt(const QPoint& pixel);
    void sayHowItWorks();

    std::shared_ptr<const paint::SmartClickSegmenter> m_segmenter;
    QFutureWatcher<std::shared_ptr<const paint::SmartClickSegmenter>> m_watcher;
    const void* m_preparedFor = nullptr;  // the scores the segmenter (or the running job) is for
    std::optional<paint::SmartClickSession> m_session;
    bool m_applying = false;  // our own edit: labelsChanged must not end the session
    QMetaObject::Connection m_labelsConnection;
    QTimer m_hoverTimer;
    QPoint m_hoverPixel{-1, -1};
    Qt::KeyboardModifiers m_hoverModifiers;
    paint::RegionMask m_hover;
    QImage m_hoverTint;
};

}  // namespace segstudio::ui::editor
