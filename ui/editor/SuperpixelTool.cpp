#include "SuperpixelTool.h"
#include "document/WorkerPool.h"

#include "ReleaseOnWorker.h"

#include "metrics/Boundary.h"

#include "LabelCanvas.h"
#include "MaskTint.h"
#include "LabelDocument.h"
#include "ToolSettings.h"

#include <QMouseEvent>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace segstudio::ui::editor {

SuperpixelTool::SuperpixelTool(ToolSettings* settings, QObject* parent)
    : AbstractTool(tr("Superpixels"), settings, parent)
{
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        takeResult();
        emit message(tr("Superpixels ready: %1").arg(m_map.count()));
        requestRepaint();
    });
}

void SuperpixelTool::takeResult()
{
    if (ready() || !m_watcher.future().isValid() || m_watcher.future().resultCount() == 0)
        return;
    Result result = m_watcher.result();
    m_map = std::move(result.map);
    m_boundaries = std::move(result.boundaries);
}

QImage SuperpixelTool::boundaryImage(const cv::Mat& ids)
{
    QImage image(ids.cols, ids.rows, QImage::Format_ARGB32_Premultiplied);
    const QRgb edge = qRgba(255, 230, 0, 255), none = qRgba(0, 0, 0, 0);
    const cv::Mat continuous = ids.isContinuous() ? ids : ids.clone();
    const int* all = continuous.ptr<int>();
    for (int y = 0; y < ids.rows; ++y) {
        auto* out = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < ids.cols; ++x)
            out[x] = metrics::onBoundary(all, ids.cols, ids.rows, x, y) ? edge : none;
    }
    return image;
}

SuperpixelTool::~SuperpixelTool() { m_watcher.waitForFinished(); }  // earlier ones own their inputs

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
        m_boundaries = QImage();
        m_mapFor = nullptr;
        return;
    }
    if (m_mapFor == doc && m_mapSize == settings()->superpixelSize() && (ready() || m_watcher.isRunning()))
        return;
    // A computation for the last image is not waited for (that would block opening the next one):
    // the watcher follows the new one and the old result is never taken. The old map and boundary
    // image (~100 MB at 12 MP) are freed on a worker.
    releaseOnWorker(std::move(m_map), std::move(m_boundaries));
    m_map = {};
    m_boundaries = QImage();
    m_mapFor = doc;
    m_mapSize = settings()->superpixelSize();
    // The image Mat is reference-counted: the worker keeps it alive even if the document closes.
    const cv::Mat image = doc->image();
    const int size = m_mapSize;
    m_watcher.setFuture(QtConcurrent::run(document::workerPool(), [image, size] {
        Result result;
        result.map = paint::SuperpixelMap::compute(image, size);
        result.boundaries = boundaryImage(result.map.ids());
        return result;
    }));
    emit message(tr("Computing superpixels…"));
}

void SuperpixelTool::waitUntilReady()
{
    m_watcher.waitForFinished();
    takeResult();
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

// The outlined superpixel stays otherwise, as if the cursor were still on it.
void SuperpixelTool::mouseLeft()
{
    m_hoverId = -1;
    requestRepaint();
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
    if (!ready())
        return;
    if (!m_boundaries.isNull()) {
        // Only the exposed part: the painter is clipped to it, in image coordinates here.
        const QRect exposed = (painter.hasClipping() ? painter.clipBoundingRect().toAlignedRect() : m_boundaries.rect()) &
                              m_boundaries.rect();
        painter.setOpacity(0.8);
        painter.drawImage(QRectF(exposed), m_boundaries, QRectF(exposed));
        painter.setOpacity(1.0);
    }
    if (m_hoverId < 0 || m_stroking)
        return;
    // Outline the superpixel under the cursor so the user sees what a click will take.
    const paint::RegionMask region = m_map.region({m_hoverId});
    painter.drawImage(QPointF(region.bounds.x, region.bounds.y), maskTint(region.mask, qRgba(255, 255, 255, 90)));
}

QString SuperpixelTool::toolTip() const
{
    return tr("Superpixels: click or drag over the image to give whole superpixels (drawn as outlines) the "
              "current class");
}

}  // namespace segstudio::ui::editor
