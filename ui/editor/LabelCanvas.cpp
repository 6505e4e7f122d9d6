#include "LabelCanvas.h"
#include "document/WorkerPool.h"

#include "ReleaseOnWorker.h"

#include <opencv2/imgproc.hpp>

#include "AbstractTool.h"
#include "LabelDocument.h"
#include "metrics/Boundary.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPaintEvent>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace segstudio::ui::editor {

LabelCanvas::LabelCanvas(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
    rebuildColors();
    connect(&m_displayWatcher, &QFutureWatcher<CanvasImages>::finished, this, &LabelCanvas::onDisplayImageReady);
}

LabelCanvas::~LabelCanvas() { m_displayWatcher.waitForFinished(); }

QImage LabelCanvas::displayImage(const cv::Mat& rgb)
{
    return QImage(rgb.data, rgb.cols, rgb.rows, static_cast<qsizetype>(rgb.step), QImage::Format_RGB888)
        .convertToFormat(QImage::Format_RGB32);
}

double LabelCanvas::fitScale(QSize image, QSize viewport)
{
    if (image.isEmpty() || viewport.isEmpty())
        return 0;
    return std::clamp(std::min(double(viewport.width()) / image.width(), double(viewport.height()) / image.height()),
                      kMinScale, kMaxScale);
}

QImage LabelCanvas::previewImage(const cv::Mat& rgb, double scale)
{
    const cv::Size size(int(std::lround(rgb.cols * scale)), int(std::lround(rgb.rows * scale)));
    if (rgb.empty() || scale <= 0 || scale > 0.5 || size.width < 1 || size.height < 1)
        return {};  // near 1:1 the image itself draws fast enough
    cv::Mat small;
    cv::resize(rgb, small, size, 0, 0, cv::INTER_AREA);
    return displayImage(small);
}

QImage LabelCanvas::previewOverlay(const QImage& overlay, double scale)
{
    if (overlay.isNull() || scale <= 0 || scale > 0.5)
        return {};
    // Premultiplied ARGB averages correctly channel by channel (transparent pixels weigh nothing).
    const cv::Mat pixels(overlay.height(), overlay.width(), CV_8UC4, const_cast<uchar*>(overlay.constBits()),
                         static_cast<std::size_t>(overlay.bytesPerLine()));
    QImage small(int(std::lround(overlay.width() * scale)), int(std::lround(overlay.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    cv::Mat out(small.height(), small.width(), CV_8UC4, small.bits(), static_cast<std::size_t>(small.bytesPerLine()));
    cv::resize(pixels, out, out.size(), 0, 0, cv::INTER_AREA);
    return small;
}

QImage LabelCanvas::composedOverlay(const cv::Mat& labels, const OverlayStyle& style)
{
    QImage overlay(labels.cols, labels.rows, QImage::Format_ARGB32_Premultiplied);
    composeInto(overlay, labels, style, overlay.rect());
    return overlay;
}

void LabelCanvas::setDocument(LabelDocument* document, const Prepared& prepared)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (m_document)
        connect(m_document, &LabelDocument::labelsChanged, this, &LabelCanvas::onLabelsChanged);
    // Another image: the last one's prediction must not stay; the owner sets this one's.
    m_prediction.clear();
    m_prediction.setTruth(m_document ? &m_document->labels() : nullptr);
    m_review = QImage();
    rebuildImage(prepared);
    m_fitPending = true;
    fitToWindow();
    if (m_tool)
        m_tool->documentChanged();
}

void LabelCanvas::setSchema(const data::ClassSchema& schema)
{
    m_schema = schema;
    rebuildColors();
}

void LabelCanvas::setTool(AbstractTool* tool)
{
    if (tool == m_tool)
        return;
    if (m_tool)
        m_tool->deactivate();
    m_tool = tool;
    if (m_tool)
        m_tool->activate(this);
    update();
}

void LabelCanvas::rebuildImage(const Prepared& prepared)
{
    ++m_generation;
    m_currentGeneration->store(m_generation);
    releaseOnWorker(std::move(m_rgb), std::move(m_image), std::move(m_preview), std::move(m_overlay));  // ~150 MB at 12 MP
    m_rgb = cv::Mat();
    m_image = QImage();
    m_preview = QImage();
    m_overlayPreview = QImage();
    m_overlay = QImage();
    m_tileComposed.clear();
    if (!m_document) {
        m_image = QImage();
        m_overlay = QImage();
        update();
        return;
    }
    const cv::Mat& rgb = m_document->image();
    const cv::Size size = m_document->size();
    const QSize qsize(size.width, size.height);
    if (!rgb.empty() && prepared.display.size() == qsize) {
        m_image = prepared.display;
        m_preview = prepared.preview;
        m_previewScale = prepared.previewScale;
    } else if (rgb.empty()) {
        m_image = QImage(size.width, size.height, QImage::Format_RGB32);
        m_image.fill(Qt::darkGray);
    } else {
        // Converting 12 MP to RGB32 takes tens of milliseconds: show the RGB pixels as they are at
        // once and swap in the RGB32 copy, which draws several times faster when scaled, later.
        m_rgb = rgb;
        m_image = QImage(m_rgb.data, m_rgb.cols, m_rgb.rows, static_cast<qsizetype>(m_rgb.step), QImage::Format_RGB888);
        const cv::Mat pixels = m_rgb;  // the worker's own reference: the document may close first
        const int generation = m_generation;
        std::shared_ptr<std::atomic<int>> current = m_currentGeneration;
        current->store(generation);
        const double previewScale = fitScale(QSize(pixels.cols, pixels.rows), this->size());
        m_displayWatcher.setFuture(QtConcurrent::run(document::workerPool(), [pixels, generation, current, previewScale]() -> CanvasImages {
            // In strips, so that switching images quickly stops a conversion nobody will see.
            QImage converted(pixels.cols, pixels.rows, QImage::Format_RGB32);
            constexpr int kStrip = 256;
            for (int y = 0; y < pixels.rows; y += kStrip) {
                if (current->load() != generation)
                    return {};
                const int rows = std::min(kStrip, pixels.rows - y);
                const QImage strip(pixels.ptr(y), pixels.cols, rows, static_cast<qsizetype>(pixels.step),
                                   QImage::Format_RGB888);
                const QImage out = strip.convertToFormat(QImage::Format_RGB32);
                for (int r = 0; r < rows; ++r)
                    std::memcpy(converted.scanLine(y + r), out.constScanLine(r), static_cast<std::size_t>(pixels.cols) * 4);
            }
            CanvasImages images;
            images.display = converted;
            images.preview = previewImage(pixels, previewScale);
            images.previewScale = previewScale;
            return images;
        }));
        m_displayWatcher.setProperty("generation", m_generation);
    }
    m_tilesX = (size.width + kOverlayTile - 1) / kOverlayTile;
    const int tilesY = (size.height + kOverlayTile - 1) / kOverlayTile;
    const bool composed = prepared.overlay.size() == qsize && prepared.style == overlayStyle();
    // Else allocation only: the pages are touched when a tile is first composed.
    m_overlay = composed ? prepared.overlay : QImage(size.width, size.height, QImage::Format_ARGB32_Premultiplied);
    if (composed && prepared.previewScale == m_previewScale)
        m_overlayPreview = prepared.overlayPreview;
    m_tileComposed.assign(static_cast<std::size_t>(m_tilesX) * static_cast<std::size_t>(tilesY), composed);
    update();
}

void LabelCanvas::onDisplayImageReady()
{
    if (m_displayWatcher.property("generation").toInt() != m_generation || !m_displayWatcher.future().isValid() ||
        m_displayWatcher.future().resultCount() == 0)
        return;
    const CanvasImages converted = m_displayWatcher.result();
    if (converted.display.size() != m_image.size())
        return;
    m_image = converted.display;
    m_preview = converted.preview;
    m_previewScale = converted.previewScale;
    update();
}

void LabelCanvas::waitForDisplayImage()
{
    m_displayWatcher.waitForFinished();
    onDisplayImageReady();
}

void LabelCanvas::rebuildColors()
{
    m_colors.fill(qRgba(0, 0, 0, 0));
    for (const data::LabelClass& c : m_schema.classes()) {
        if (c.id >= 0 && c.id < 255 && !m_hidden[static_cast<std::size_t>(c.id)])
            m_colors[static_cast<std::size_t>(c.id)] = qRgba(c.color.r, c.color.g, c.color.b, 255);
    }
    m_prediction.setColors(m_colors);
    invalidateOverlay();
}

void LabelCanvas::invalidateOverlay()
{
    m_overlayPreview = QImage();
    std::fill(m_tileComposed.begin(), m_tileComposed.end(), false);
    update();
}

void LabelCanvas::ensureComposed(const QRect& imageRect)
{
    if (!m_document || m_overlay.isNull())
        return;
    const QRect rect = imageRect & m_overlay.rect();
    if (rect.isEmpty())
        return;
    for (int ty = rect.top() / kOverlayTile; ty <= rect.bottom() / kOverlayTile; ++ty) {
        for (int tx = rect.left() / kOverlayTile; tx <= rect.right() / kOverlayTile; ++tx) {
            const std::size_t index = static_cast<std::size_t>(ty) * static_cast<std::size_t>(m_tilesX) +
                                      static_cast<std::size_t>(tx);
            if (m_tileComposed[index])
                continue;
            composeRect(QRect(tx * kOverlayTile, ty * kOverlayTile, kOverlayTile, kOverlayTile) & m_overlay.rect());
            m_tileComposed[index] = true;
        }
    }
}

int LabelCanvas::composedTileCount() const
{
    return static_cast<int>(std::count(m_tileComposed.begin(), m_tileComposed.end(), true));
}

const QImage& LabelCanvas::overlay()
{
    ensureComposed(m_overlay.rect());
    return m_overlay;
}

void LabelCanvas::recompose(const QRect& imageRect)
{
    m_overlayPreview = QImage();
    if (!m_document || m_overlay.isNull())
        return;
    // Outlines depend on neighbours, so a change also redraws the ring around it. Tiles not yet
    // composed are left for the paint that first shows them.
    composeRect((m_outline ? imageRect.adjusted(-1, -1, 1, 1) : imageRect) & m_overlay.rect());
}

void LabelCanvas::composeRect(const QRect& rect)
{
    composeInto(m_overlay, m_document->labels(), overlayStyle(), rect);
}

void LabelCanvas::composeInto(QImage& overlay, const cv::Mat& labels, const OverlayStyle& style, const QRect& rect)
{
    const int w = labels.cols, h = labels.rows;
    // The boundary rule reads whole rows; a label map is continuous unless someone made it a view.
    const cv::Mat whole = !style.outline || labels.isContinuous() ? labels : labels.clone();
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        const std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        auto* out = reinterpret_cast<QRgb*>(overlay.scanLine(y));
        if (!style.outline) {
            for (int x = rect.left(); x <= rect.right(); ++x)
                out[x] = style.colors[row[x]];
            continue;
        }
        const std::uint8_t* all = whole.ptr<std::uint8_t>();
        for (int x = rect.left(); x <= rect.right(); ++x)
            out[x] = metrics::onBoundary(all, w, h, x, y) ? style.colors[row[x]] : qRgba(0, 0, 0, 0);
    }
}

void LabelCanvas::onLabelsChanged(const QRect& imageRect)
{
    m_prediction.invalidate(imageRect);  // the error map follows the labels
    recompose(imageRect);
    update(widgetRectOf(imageRect.adjusted(-1, -1, 1, 1)));
}

QPointF LabelCanvas::mapToImage(const QPointF& widgetPos) const { return (widgetPos - m_offset) / m_scale; }
QPointF LabelCanvas::mapFromImage(const QPointF& imagePos) const { return imagePos * m_scale + m_offset; }

QRect LabelCanvas::widgetRectOf(const QRect& imageRect) const
{
    const QPointF tl = mapFromImage(imageRect.topLeft());
    const QPointF br = mapFromImage(QPointF(imageRect.right() + 1, imageRect.bottom() + 1));
    return QRectF(tl, br).toAlignedRect().adjusted(-1, -1, 1, 1);
}

QRect LabelCanvas::exposedImageRect(const QRect& widgetRect) const
{
    const QPointF tl = mapToImage(widgetRect.topLeft());
    const QPointF br = mapToImage(QPointF(widgetRect.right() + 1, widgetRect.bottom() + 1));
    const QRect rect(QPoint(static_cast<int>(std::floor(tl.x())), static_cast<int>(std::floor(tl.y()))),
                     QPoint(static_cast<int>(std::ceil(br.x())), static_cast<int>(std::ceil(br.y()))));
    return rect & m_image.rect();
}

void LabelCanvas::paintEvent(QPaintEvent* event)
{
    QPainter painter(this);
    painter.fillRect(event->rect(), palette().color(QPalette::Dark));
    if (m_image.isNull())
        return;
    const QRect source = exposedImageRect(event->rect());
    if (source.isEmpty())
        return;
    painter.setClipRect(event->rect());
    painter.translate(m_offset);
    painter.scale(m_scale, m_scale);
    // Nearest-neighbour when magnified (pixels must look like pixels); smooth when minified.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, m_scale < 1.0);
    if (drawsPreview()) {
        const double k = double(m_preview.width()) / m_image.width();
        painter.drawImage(QRectF(source), m_preview, QRectF(source.x() * k, source.y() * k, source.width() * k, source.height() * k));
    } else {
        painter.drawImage(QRectF(source), m_image, QRectF(source));
    }
    if (m_labelsVisible && !m_predictionInstead) {
        painter.setOpacity(m_outline ? 1.0 : m_opacity);
        if (drawsPreview() && !m_overlayPreview.isNull()) {
            const double k = double(m_overlayPreview.width()) / m_overlay.width();
            painter.drawImage(QRectF(source), m_overlayPreview,
                              QRectF(source.x() * k, source.y() * k, source.width() * k, source.height() * k));
        } else {
            ensureComposed(source);
            painter.drawImage(QRectF(source), m_overlay, QRectF(source));
        }
        painter.setOpacity(1.0);
    }
    if (m_prediction.hasPrediction() && m_prediction.view() != PredictionLayer::View::Off) {
        painter.setOpacity(m_predictionInstead ? m_opacity : m_predictionOpacity);
        painter.drawImage(QRectF(source), m_prediction.composed(source), QRectF(source));
        painter.setOpacity(1.0);
    }
    if (!m_review.isNull())
        painter.drawImage(QRectF(source), m_review, QRectF(source));
    if (m_scale >= kGridScale)
        drawPixelGrid(painter, source);
    if (m_tool)
        m_tool->paintOverlay(painter);
}

bool LabelCanvas::drawsPreview() const
{
    return !m_preview.isNull() && m_scale <= m_previewScale * 1.001 && m_scale >= m_previewScale / 2;
}

void LabelCanvas::drawPixelGrid(QPainter& painter, const QRect& imageRect) const
{
    QPen pen(QColor(128, 128, 128, 110));
    pen.setCosmetic(true);
    painter.setPen(pen);
    for (int x = imageRect.left(); x <= imageRect.right() + 1; ++x)
        painter.drawLine(QPointF(x, imageRect.top()), QPointF(x, imageRect.bottom() + 1));
    for (int y = imageRect.top(); y <= imageRect.bottom() + 1; ++y)
        painter.drawLine(QPointF(imageRect.left(), y), QPointF(imageRect.right() + 1, y));
}

void LabelCanvas::resizeEvent(QResizeEvent*)
{
    if (m_fitPending)
        fitToWindow();
}

void LabelCanvas::setScale(double scale, const QPointF& anchor)
{
    scale = std::clamp(scale, kMinScale, kMaxScale);
    const QPointF imagePoint = mapToImage(anchor);
    m_scale = scale;
    m_offset = anchor - imagePoint * m_scale;
    m_fitPending = false;
    update();
    emit scaleChanged(m_scale);
}

void LabelCanvas::zoomIn() { setScale(m_scale * 1.25, QPointF(width() / 2.0, height() / 2.0)); }
void LabelCanvas::zoomOut() { setScale(m_scale / 1.25, QPointF(width() / 2.0, height() / 2.0)); }

void LabelCanvas::fitToWindow()
{
    if (m_image.isNull() || width() <= 0 || height() <= 0)
        return;
    m_scale = fitScale(m_image.size(), size());
    m_offset = QPointF((width() - m_image.width() * m_scale) / 2.0, (height() - m_image.height() * m_scale) / 2.0);
    m_fitPending = true;
    update();
    emit scaleChanged(m_scale);
}

void LabelCanvas::actualSize()
{
    const QPointF centre(width() / 2.0, height() / 2.0);
    const QPointF imageCentre = mapToImage(centre);
    m_scale = 1.0;
    m_offset = centre - imageCentre;
    m_fitPending = false;
    update();
    emit scaleChanged(m_scale);
}

void LabelCanvas::setLabelOpacity(double opacity)
{
    m_opacity = std::clamp(opacity, 0.0, 1.0);
    update();
}

void LabelCanvas::setLabelsVisible(bool visible)
{
    m_labelsVisible = visible;
    update();
}

void LabelCanvas::setOutlineMode(bool outline)
{
    if (outline == m_outline)
        return;
    m_outline = outline;
    invalidateOverlay();
}

void LabelCanvas::setPrediction(const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy, const cv::Mat& scores)
{
    const bool fits = m_document && classes.size() == m_document->size() && confidence.size() == classes.size() &&
                      entropy.size() == classes.size();
    if (fits)
        m_prediction.setMaps(classes, confidence, entropy, scores);
    else
        m_prediction.clear();
    m_prediction.setView(m_predictionInstead ? PredictionLayer::View::Classes : m_predictionView);
    if (m_tool)
        m_tool->predictionChanged();
    update();
}

void LabelCanvas::setPredictionView(PredictionLayer::View view)
{
    m_predictionView = view;
    if (!m_predictionInstead)
        m_prediction.setView(view);
    update();
}

void LabelCanvas::setPredictionOpacity(double opacity)
{
    m_predictionOpacity = std::clamp(opacity, 0.0, 1.0);
    update();
}

void LabelCanvas::setShowPredictionInstead(bool on)
{
    m_predictionInstead = on;
    m_prediction.setView(on ? PredictionLayer::View::Classes : m_predictionView);
    update();
}

void LabelCanvas::setReviewLayer(const QImage& tint)
{
    m_review = m_document && tint.size() == QSize(m_document->size().width, m_document->size().height) ? tint : QImage();
    update();
}

const QImage& LabelCanvas::predictionImage() { return m_prediction.composed(QRect(QPoint(0, 0), QSize(1 << 20, 1 << 20))); }

void LabelCanvas::setClassVisible(int classId, bool visible)
{
    if (classId < 0 || classId > 255)
        return;
    m_hidden[static_cast<std::size_t>(classId)] = !visible;
    rebuildColors();
    update();
}

bool LabelCanvas::classVisible(int classId) const
{
    return classId >= 0 && classId < 256 && !m_hidden[static_cast<std::size_t>(classId)];
}

void LabelCanvas::updateHover(const QPointF& widgetPos)
{
    std::optional<QPoint> pixel;
    if (!m_image.isNull()) {
        const QPointF p = mapToImage(widgetPos);
        const QPoint q(static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y())));
        if (m_image.rect().contains(q))
            pixel = q;
    }
    if (pixel != m_hover) {
        m_hover = pixel;
        emit hoverChanged(pixel);
    }
}

void LabelCanvas::setEditable(bool editable)
{
    // No repaint, unlike setEnabled(): blocking edits for the ~100 ms of an open must not redraw
    // a 12 MP view.
    m_editable = editable;
}

bool LabelCanvas::toolTakesInput() const { return m_tool && m_document && m_editable; }

void LabelCanvas::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
        m_panning = true;
        m_panStart = event->position().toPoint();
        m_panOffsetStart = m_offset;
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (toolTakesInput())
        m_tool->mousePressed(event, mapToImage(event->position()));
    else if (m_tool && m_document && event->button() == Qt::LeftButton)
        emit editRefused();  // the editor says why: a click must never do nothing silently
}

void LabelCanvas::mouseMoveEvent(QMouseEvent* event)
{
    updateHover(event->position());
    if (m_panning) {
        m_offset = m_panOffsetStart + (event->position().toPoint() - m_panStart);
        m_fitPending = false;
        update();
        return;
    }
    if (toolTakesInput())
        m_tool->mouseMoved(event, mapToImage(event->position()));
}

void LabelCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning) {
        m_panning = false;
        unsetCursor();
        return;
    }
    if (toolTakesInput())
        m_tool->mouseReleased(event, mapToImage(event->position()));
}

void LabelCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (toolTakesInput() && !m_panning)
        m_tool->mouseDoubleClicked(event, mapToImage(event->position()));
}

void LabelCanvas::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0)
        return;
    setScale(m_scale * std::pow(1.25, steps), event->position());
    updateHover(event->position());
}

void LabelCanvas::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = true;
        setCursor(Qt::OpenHandCursor);
        return;
    }
    if (toolTakesInput() && m_tool->keyPressed(event))
        return;
    QWidget::keyPressEvent(event);
}

void LabelCanvas::keyReleaseEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = false;
        if (!m_panning)
            unsetCursor();
        return;
    }
    QWidget::keyReleaseEvent(event);
}

void LabelCanvas::leaveEvent(QEvent*)
{
    // Also while the canvas takes no edit: a preview left on screen reads as labels that are not there.
    if (m_tool)
        m_tool->mouseLeft();
    if (m_hover) {
        m_hover.reset();
        emit hoverChanged(std::nullopt);
    }
}

}  // namespace segstudio::ui::editor
