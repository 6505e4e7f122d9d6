#include "SuperpixelTool.h"

#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "ToolSettings.h"

#include <QMouseEvent>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace segstudio::ui {

SuperpixelTool::SuperpixelTool(ToolSettings* settings, QObject* parent)
    : AbstractTool(tr("Superpixels"), settings, parent)
{
    connect(&m_watcher, &QFutureWatcher<paint::SuperpixelMap>::finished, this, [this] {
        if (m_watcher.future().isValid() && m_watcher.future().resultCount() > 0)
            m_map = m_watcher.result();
        emit message(tr("Superpixels ready: %1").arg(m_map.count()));
        requestRepaint();
    });
}

SuperpixelTool::~SuperpixelTool() { m_watcher.waitForFinished(); }

void SuperpixelTool::activate(LabelCanvas* canvas)
{
    AbstractTool::activate(canvas);
    startComputing();
}

void SuperpixelTool::deactivate()
{
    if (m_stroking && document())
        document()->endEdit(name());
    m_stroking = false;
    m_hoverId = -1;
    AbstractTool::deactivate();
}

void SuperpixelTool::documentChanged()
{
    m_stroking = false;
    startComputing();
}

void SuperpixelTool::startComputing()
{
    LabelDocument* doc = document();
    if (!doc || doc->image().empty()) {
        m_map = {};
        m_mapFor = nullptr;
        return;
    }
    if (m_mapFor == doc && m_mapSize == settings()->superpixelSize() && (ready() || m_watcher.isRunning()))
        return;
    m_watcher.waitForFinished();  // at most one computation at a time
    m_map = {};
    m_mapFor = doc;
    m_mapSize = settings()->superpixelSize();
    // The image Mat is reference-counted: the worker keeps it alive even if the document closes.
    const cv::Mat image = doc->image();
    const int size = m_mapSize;
    m_watcher.setFuture(QtConcurrent::run([image, size] { return paint::SuperpixelMap::compute(image, size); }));
    emit message(tr("Computing superpixels…"));
}

void SuperpixelTool::waitUntilReady()
{
    m_watcher.waitForFinished();
    if (!ready() && m_watcher.future().isValid() && m_watcher.future().resultCount() > 0)
        m_map = m_watcher.result();
}

void SuperpixelTool::paintAt(const QPointF& imagePos)
{
    const int id = m_map.idAt({static_cast<int>(std::floor(imagePos.x())), static_cast<int>(std::floor(imagePos.y()))});
    if (id < 0 || !m_painted.insert(id).second)
        return;
    LabelDocument* doc = document();
    const paint::RegionMask region = m_map.region({id});
    region.paint(doc->touch(region.bounds), static_cast<std::uint8_t>(settings()->currentClass()), settings()->guard());
    doc->notifyChanged(region.bounds);
}

void SuperpixelTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton || !document())
        return;
    if (m_mapSize != settings()->superpixelSize())
        startComputing();
    if (!ready()) {
        emit message(tr("Superpixels are still being computed…"));
        return;
    }
    document()->beginEdit();
    m_stroking = true;
    m_painted.clear();
    paintAt(imagePos);
}

void SuperpixelTool::mouseMoved(QMouseEvent*, const QPointF& imagePos)
{
    if (m_stroking) {
        paintAt(imagePos);
        return;
    }
    const int id = m_map.idAt({static_cast<int>(std::floor(imagePos.x())), static_cast<int>(std::floor(imagePos.y()))});
    if (id != m_hoverId) {
        m_hoverId = id;
        requestRepaint();
    }
}

void SuperpixelTool::mouseReleased(QMouseEvent* event, const QPointF&)
{
    if (event->button() != Qt::LeftButton || !m_stroking)
        return;
    m_stroking = false;
    if (document())
        document()->endEdit(tr("Superpixel fill"));
}

void SuperpixelTool::paintOverlay(QPainter& painter)
{
    if (m_hoverId < 0 || m_stroking || !ready())
        return;
    // Outline the superpixel under the cursor so the user sees what a click will take.
    const paint::RegionMask region = m_map.region({m_hoverId});
    QImage mask(region.bounds.width, region.bounds.height, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < region.mask.rows; ++y) {
        auto* out = reinterpret_cast<QRgb*>(mask.scanLine(y));
        const auto* in = region.mask.ptr<std::uint8_t>(y);
        for (int x = 0; x < region.mask.cols; ++x)
            out[x] = in[x] ? qRgba(255, 255, 255, 90) : qRgba(0, 0, 0, 0);
    }
    painter.drawImage(QPointF(region.bounds.x, region.bounds.y), mask);
}

}  // namespace segstudio::ui
