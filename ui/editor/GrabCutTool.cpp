#include "GrabCutTool.h"
#include "MaskTint.h"
#include "document/WorkerPool.h"

#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "ToolSettings.h"

#include "paint/Brush.h"
#include "paint/GrabCutSegmenter.h"
#include "paint/WriteGuard.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <cmath>
#include <utility>

namespace segstudio::ui::editor {

namespace {

constexpr QRgb kPreviewColour = qRgba(0, 160, 160, 160);  // premultiplied teal

}  // namespace

GrabCutTool::GrabCutTool(ToolSettings* settings, QObject* parent) : AbstractTool(tr("Smart region"), settings, parent)
{
    connect(&m_job, &QFutureWatcherBase::finished, this, &GrabCutTool::segmentationFinished);
}

QString GrabCutTool::toolTip() const
{
    return tr("Smart region (GrabCut): drag a rectangle around an object, or Shift+drag over the object and "
              "Ctrl+drag over background; Enter or a click inside applies, Esc discards");
}

void GrabCutTool::deactivate()
{
    discard();
    m_drag = Drag::None;
    AbstractTool::deactivate();
}

void GrabCutTool::documentChanged()
{
    ++m_generation;  // a result for the last image must not land on this one
    m_applyWhenReady = false;
    m_pending = false;
    m_preview = {};
    m_previewTint = {};
    m_previewSmallTint = {};
    clearStrokes();
    m_drag = Drag::None;
}

void GrabCutTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton)
        return;
    const QPoint p = pixelOf(imagePos);
    const Qt::KeyboardModifiers modifiers = event->modifiers();
    if (modifiers & (Qt::ShiftModifier | Qt::ControlModifier)) {
        // Strokes refine what earlier strokes found, so they keep the current preview.
        m_drag = (modifiers & Qt::ShiftModifier) ? Drag::Foreground : Drag::Background;
        m_last = p;
        addStrokeSegment(p, p);
        return;
    }
    if (hasPreview() && m_preview.bounds.contains(cv::Point(p.x(), p.y()))) {
        apply();
        return;
    }
    discard();
    m_start = p;
    m_dragRect = QRect(p, p);
    m_drag = Drag::Rectangle;
}

void GrabCutTool::mouseMoved(QMouseEvent*, const QPointF& imagePos)
{
    const QPoint p = pixelOf(imagePos);
    if (m_drag == Drag::Rectangle) {
        m_dragRect = QRect(m_start, p).normalized();
        requestRepaint();
    } else if (m_drag == Drag::Foreground || m_drag == Drag::Background) {
        addStrokeSegment(m_last, p);
        m_last = p;
    }
}

void GrabCutTool::mouseReleased(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton || m_drag == Drag::None)
        return;
    const Drag drag = m_drag;
    if (drag != Drag::Rectangle)
        addStrokeSegment(m_last, pixelOf(imagePos));
    m_drag = Drag::None;
    LabelDocument* doc = document();
    if (!doc || doc->image().empty())
        return;
    if (drag == Drag::Rectangle) {
        m_dragRect = QRect(m_start, pixelOf(imagePos)).normalized();
        segmentRectangle();
    } else {
        segmentStrokes();
    }
}

void GrabCutTool::segmentRectangle()
{
    const cv::Mat image = document()->image();  // shared, read-only: the document never writes its pixels
    const cv::Rect rect(m_dragRect.x(), m_dragRect.y(), m_dragRect.width(), m_dragRect.height());
    startSegmentation([image, rect] { return paint::GrabCutSegmenter::fromRect(image, rect); },
                      tr("GrabCut found no object in that rectangle"));
}

void GrabCutTool::startSegmentation(std::function<paint::RegionMask()> job, const QString& failure)
{
    m_jobGeneration = ++m_generation;
    m_jobFailure = failure;
    m_pending = true;
    // A job still running finishes on its own; its result is stale and dropped.
    m_job.setFuture(QtConcurrent::run(document::workerPool(), [job = std::move(job), scale = canvas()->scale()] {
        Found found{job(), {}, {}, 0};
        found.tint = maskTint(found.region.mask, kPreviewColour);
        found.smallTint = LabelCanvas::previewOverlay(found.tint, scale);
        found.smallScale = found.smallTint.isNull() ? 0 : scale;
        return found;
    }));
    emit message(tr("Finding the region…"));
    requestRepaint();
}

void GrabCutTool::segmentationFinished()
{
    if (m_jobGeneration != m_generation || !m_pending)
        return;
    m_pending = false;
    Found found = m_job.result();
    m_preview = std::move(found.region);
    m_previewTint = std::move(found.tint);
    m_previewSmallTint = std::move(found.smallTint);
    m_previewSmallScale = found.smallScale;
    reportResult(m_jobFailure);
    if (std::exchange(m_applyWhenReady, false))
        apply();
}

void GrabCutTool::waitForSegmentation()
{
    m_job.waitForFinished();
    QCoreApplication::sendPostedEvents(&m_job);  // the watcher's finished signal, now
}

void GrabCutTool::segmentStrokes()
{
    if (m_foreground.empty()) {
        emit message(tr("Shift+drag over the object first; Ctrl+drag marks background"));
        requestRepaint();
        return;
    }
    // Copies of the strokes: the user may keep stroking while this runs.
    const cv::Mat background = m_background.empty() ? cv::Mat::zeros(m_foreground.size(), CV_8UC1) : m_background.clone();
    const cv::Mat foreground = m_foreground.clone();
    const cv::Mat image = document()->image();
    startSegmentation([image, foreground, background] { return paint::GrabCutSegmenter::fromStrokes(image, foreground, background); },
                      tr("GrabCut found no object from these strokes; add more"));
}

void GrabCutTool::reportResult(const QString& failure)
{
    emit message(hasPreview() ? tr("Enter or click inside applies the region, Esc discards it") : failure);
    requestRepaint();
}

void GrabCutTool::addStrokeSegment(const QPoint& from, const QPoint& to)
{
    LabelDocument* doc = document();
    if (!doc)
        return;
    const bool foreground = m_drag == Drag::Foreground;
    cv::Mat& mask = foreground ? m_foreground : m_background;
    cv::Rect& bounds = foreground ? m_foregroundBounds : m_backgroundBounds;
    if (mask.empty())
        mask = cv::Mat::zeros(doc->size(), CV_8UC1);
    // Seeds are rasterised exactly like a paint stroke of the current brush size.
    const paint::Brush brush(settings()->brushSize(), paint::BrushShape::Round);
    const cv::Point a(from.x(), from.y()), b(to.x(), to.y());
    const cv::Rect changed = a == b ? brush.stamp(mask, b, 255, paint::WriteGuard())
                                    : brush.stroke(mask, a, b, 255, paint::WriteGuard());
    bounds |= changed;
    // Where an object and a background stroke cross, the later stroke wins.
    cv::Mat& other = foreground ? m_background : m_foreground;
    if (!other.empty() && !changed.empty())
        other(changed).setTo(0, mask(changed));
    requestRepaint();
}

void GrabCutTool::clearStrokes()
{
    m_foreground.release();
    m_background.release();
    m_foregroundBounds = {};
    m_backgroundBounds = {};
}

bool GrabCutTool::keyPressed(QKeyEvent* event)
{
    if (!hasPreview() && m_foreground.empty() && m_background.empty() && !isSegmenting())
        return false;
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        if (isSegmenting())
            m_applyWhenReady = true;  // applied when the region comes
        else if (hasPreview())
            apply();
        return true;
    }
    if (event->key() == Qt::Key_Escape) {
        discard();
        return true;
    }
    return false;
}

void GrabCutTool::apply()
{
    if (!hasPreview() || !document())
        return;
    const paint::RegionMask region = std::move(m_preview);
    m_preview = {};
    m_previewTint = {};
    m_previewSmallTint = {};
    clearStrokes();
    document()->paintRegion(region, static_cast<std::uint8_t>(settings()->currentClass()), settings()->guard(),
                            tr("Smart region"));
    requestRepaint();
}

void GrabCutTool::discard()
{
    ++m_generation;  // a region still being found is no longer wanted
    m_applyWhenReady = false;
    m_pending = false;
    if (!hasPreview() && m_foreground.empty() && m_background.empty())
        return;
    m_preview = {};
    m_previewTint = {};
    m_previewSmallTint = {};
    clearStrokes();
    requestRepaint();
}

void GrabCutTool::paintMask(QPainter& painter, const cv::Mat& mask, const cv::Point& at, QRgb colour)
{
    if (!mask.empty())
        painter.drawImage(QPointF(at.x, at.y), maskTint(mask, colour));
}

void GrabCutTool::paintOverlay(QPainter& painter)
{
    QPen pen(Qt::cyan);
    pen.setCosmetic(true);
    pen.setStyle(Qt::DashLine);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    if (m_drag == Drag::Rectangle)
        painter.drawRect(QRectF(m_dragRect.x(), m_dragRect.y(), m_dragRect.width() + 1, m_dragRect.height() + 1));
    const double scale = canvas()->scale();
    const QRectF bounds(m_preview.bounds.x, m_preview.bounds.y, m_preview.bounds.width, m_preview.bounds.height);
    if (hasPreview() && !m_previewSmallTint.isNull() && scale <= m_previewSmallScale * 1.001 && scale >= m_previewSmallScale / 2)
        painter.drawImage(bounds, m_previewSmallTint);
    else if (hasPreview() && !m_previewTint.isNull())
        painter.drawImage(QPointF(m_preview.bounds.x, m_preview.bounds.y), m_previewTint);
    // Seeds on top (premultiplied colours): object green, background red.
    if (!m_foreground.empty() && !m_foregroundBounds.empty())
        paintMask(painter, m_foreground(m_foregroundBounds), m_foregroundBounds.tl(), qRgba(0, 200, 0, 200));
    if (!m_background.empty() && !m_backgroundBounds.empty())
        paintMask(painter, m_background(m_backgroundBounds), m_backgroundBounds.tl(), qRgba(200, 0, 0, 200));
}

}  // namespace segstudio::ui::editor
