#pragma once

#include "AbstractTool.h"

#include "paint/SuperpixelMap.h"

#include <QFutureWatcher>
#include <QImage>

#include <set>

namespace segstudio::ui::editor {

// Paints whole SLIC superpixels: every superpixel the cursor passes over during one drag gets the
// current class, as one undo entry. The superpixels are computed in the background when the tool
// is first used on an image (or the size setting changes); clicks before that only report it.
// While the tool is active their boundaries are drawn over the image, so the user sees what a
// click takes; the boundary image is made on the same background thread as the superpixels.
class SuperpixelTool : public AbstractTool {
    Q_OBJECT

public:
    explicit SuperpixelTool(ToolSettings* settings, QObject* parent = nullptr);
    QString toolTip() const override;
    ~SuperpixelTool() override;

    void activate(LabelCanvas* canvas) override;
    void deactivate() override;
    void documentChanged() override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseMoved(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseReleased(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseLeft() override;
    void paintOverlay(QPainter& painter) override;

    bool ready() const { return !m_map.empty(); }
    const paint::SuperpixelMap& map() const { return m_map; }
    // ARGB32 premultiplied, image-sized: opaque where a pixel's right or lower neighbour lies in
    // another superpixel, transparent elsewhere; null until ready.
    const QImage& boundaries() const { return m_boundaries; }
    void waitUntilReady();  // for tests and scripts

private:
    struct Result {
        paint::SuperpixelMap map;
        QImage boundaries;
    };
    static QImage boundaryImage(const cv::Mat& ids);
    void takeResult();
    void startComputing();
    void paintAt(const QPointF& imagePos);

    QFutureWatcher<Result> m_watcher;
    paint::SuperpixelMap m_map;
    QImage m_boundaries;
    const void* m_mapFor = nullptr;  // the document the map belongs to
    int m_mapSize = 0;
    bool m_stroking = false;
    std::set<int> m_painted;
    int m_hoverId = -1;
};

}  // namespace segstudio::ui::editor
