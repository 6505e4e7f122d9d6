#pragma once

#include "AbstractTool.h"

#include <QPoint>
#include <QVector>

#include <opencv2/core.hpp>

#include <vector>

namespace segstudio::ui::editor {

// Thin stroke (key L, issue 61.3): a drag along a pole, a post, a sign's stem or a cyclist's frame
// labels that thin structure with the current class, bounded by the image's edges
// (paint::StrokeSegmenter, at the image's full resolution). The brush's size sets the band the
// structure may fill around the drag (shown while dragging): about twice the thing's width. No
// model is needed, so it works on a project without a trained run. Shift+drag takes back: the
// pixels of the current class the stroke finds become unlabelled. One drag is one undo entry.
class ThinStrokeTool : public AbstractTool {
    Q_OBJECT

public:
    explicit ThinStrokeTool(ToolSettings* settings, QObject* parent = nullptr);

    QString toolTip() const override;
    void activate(LabelCanvas* canvas) override;
    void deactivate() override;
    void documentChanged() override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseMoved(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseReleased(QMouseEvent* event, const QPointF& imagePos) override;
    void paintOverlay(QPainter& painter) override;

    // The band around the drag that the structure may fill, in image pixels (from the brush).
    int corridor() const;
    // Labels along a finished drag, as a release does (tests and scripts): returns the pixels changed.
    std::int64_t strokeAlong(const std::vector<cv::Point>& path, bool takeBack);

private:
    QVector<QPoint> m_path;
    bool m_takeBack = false;
};

}  // namespace segstudio::ui::editor
