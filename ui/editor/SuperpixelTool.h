#pragma once

#include "AbstractTool.h"

#include "paint/SuperpixelMap.h"

#include <QFutureWatcher>

#include <set>

namespace segstudio::ui {

// Paints whole SLIC superpixels: every superpixel the cursor passes over during one drag gets the
// current class, as one undo entry. The superpixels are computed in the background when the tool
// is first used on an image (or the size setting changes); clicks before that only report it.
class SuperpixelTool : public AbstractTool {
    Q_OBJECT

public:
    explicit SuperpixelTool(ToolSettings* settings, QObject* parent = nullptr);
    ~SuperpixelTool() override;

    void activate(LabelCanvas* canvas) override;
    void deactivate() override;
    void documentChanged() override;
    void mousePressed(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseMoved(QMouseEvent* event, const QPointF& imagePos) override;
    void mouseReleased(QMouseEvent* event, const QPointF& imagePos) override;
    void paintOverlay(QPainter& painter) override;

    bool ready() const { return !m_map.empty(); }
    void waitUntilReady();  // for tests and scripts

private:
    void startComputing();
    void paintAt(const QPointF& imagePos);

    QFutureWatcher<paint::SuperpixelMap> m_watcher;
    paint::SuperpixelMap m_map;
    const void* m_mapFor = nullptr;  // the document the map belongs to
    int m_mapSize = 0;
    bool m_stroking = false;
    std::set<int> m_painted;
    int m_hoverId = -1;
};

}  // namespace segstudio::ui
