#include "SmartClickTool.h"

#include "document/WorkerPool.h"

#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "MaskTint.h"
#include "ToolSettings.h"

#include "data/labels/LabelClass.h"
#include "paint/GrabCutSegmenter.h"

#include <QMouseEvent>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include <opencv2/imgproc.hpp>

#include <cmath>

namespace segstudio::ui::editor {

namespace {

// GrabCut stands in for the model: its work is kept small enough to answer a click at once.
constexpr int kFallbackWorkPixels = 120'000;
constexpr int kFallbackDotRadius = 4;  // the clicks as the stroke dots GrabCut is seeded with

}  // namespace

SmartClickTool::SmartClickTool(ToolSettings* settings, QObject* parent)
    : AbstractTool(tr("Smart Click"), settings, parent)
{
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<const paint::SmartClickSegmenter>>::finished, this, [this] {
        takeSegmenter();
        sayHowItWorks();
        updateHover();
    });
    // The hover preview follows the mouse when it rests a moment, not on every move event.
    m_hoverTimer.setSingleShot(true);
    m_hoverTimer.setInterval(30);
    connect(&m_hoverTimer, &QTimer::timeout, this, &SmartClickTool::updateHover);
    connect(settings, &ToolSettings::currentClassChanged, this, [this] {
        endSession();
        updateHover();
    });
}

SmartClickTool::~SmartClickTool() { m_watcher.waitForFinished(); }

QString SmartClickTool::toolTip() const
{
    return tr("Smart click: click a region to give it the current class, found from the selected run's prediction "
              "and the image's edges (Shift+click takes back, Ctrl+click uses the model's class); without a "
              "prediction, GrabCut");
}

void SmartClickTool::activate(LabelCanvas* canvas)
{
    AbstractTool::activate(canvas);
    documentChanged();
}

void SmartClickTool::deactivate()
{
    endSession();
    clearHover();
    AbstractTool::deactivate();
}

void SmartClickTool::documentChanged()
{
    endSession();
    QObject::disconnect(m_labelsConnection);
    if (LabelDocument* doc = document())
        m_labelsConnection = connect(doc, &LabelDocument::labelsChanged, this, [this] {
            if (!m_applying)
                endSession();  // an undo, a stroke of another tool: the session's "before" is gone
        });
    // The cursor's last spot was on the image before: a preview there, once this image's
    // prediction is ready, would show labels where the user is not pointing.
    clearHover();
    prepare();
}

void SmartClickTool::predictionChanged()
{
    endSession();
    prepare();
}

void SmartClickTool::prepare()
{
    const cv::Mat scores = canvas() ? canvas()->prediction().scores() : cv::Mat();
    LabelDocument* doc = document();
    if (!doc || scores.empty() || doc->image().empty()) {
        m_segmenter.reset();
        m_preparedFor = nullptr;
        if (canvas())
            sayHowItWorks();
        return;
    }
    if (m_preparedFor == scores.data && (m_segmenter || m_watcher.isRunning()))
        return;
    m_segmenter.reset();
    m_preparedFor = scores.data;
    // The Mats are reference-counted: the worker keeps them alive if the image closes meanwhile;
    // a result for scores no longer shown is dropped in takeSegmenter.
    const cv::Mat image = doc->image();
    m_watcher.setFuture(QtConcurrent::run(document::workerPool(), [scores, image] {
        return std::make_shared<const paint::SmartClickSegmenter>(scores, image);
    }));
    emit message(tr("Smart click: preparing this image's prediction…"));
}

void SmartClickTool::takeSegmenter()
{
    if (!m_watcher.future().isValid() || m_watcher.future().resultCount() == 0 || !canvas())
        return;
    auto segmenter = m_watcher.result();
    if (segmenter && canvas()->prediction().scores().data == m_preparedFor)
        m_segmenter = std::move(segmenter);
}

void SmartClickTool::waitUntilReady()
{
    m_watcher.waitForFinished();
    takeSegmenter();
}

// Short enough for the status bar beside its permanent fields (the longer text was cut off at
// "…show predictio"); the tool's tooltip says the rest. The prediction's layer need not be shown:
// the model is used when the image has a prediction of the selected run.
void SmartClickTool::sayHowItWorks()
{
    if (m_segmenter)
        emit message(tr("Smart click: click a region to label it; Shift+click takes back, Ctrl+click uses the "
                        "model's class"));
    else
        emit message(tr("Smart click uses GrabCut: no model prediction for this image (select a trained run)"));
}

void SmartClickTool::endSession()
{
    m_session.reset();
}

int SmartClickTool::classFor(const QPoint& pixel, Qt::KeyboardModifiers modifiers) const
{
    if (m_session)
        return m_session->classId();
    if ((modifiers & Qt::ControlModifier) && m_segmenter) {
        const int likely = m_segmenter->likelyClassAt({pixel.x(), pixel.y()});
        if (likely >= 0)
            return likely;
    }
    return settings()->currentClass();
}

paint::SmartClickSession::RegionFinder SmartClickTool::finder() const
{
    if (m_segmenter) {
        auto segmenter = m_segmenter;  // the session may outlive a segmenter replaced meanwhile
        return [segmenter](const std::vector<paint::SmartClickSegmenter::Click>& clicks, int classId, const cv::Mat& labels) {
            return segmenter->region(clicks, classId, labels);
        };
    }
    const cv::Mat image = document()->image();
    return [image](const std::vector<paint::SmartClickSegmenter::Click>& clicks, int, const cv::Mat&) {
        cv::Mat foreground(image.size(), CV_8UC1, cv::Scalar(0)), background(image.size(), CV_8UC1, cv::Scalar(0));
        for (const auto& click : clicks)
            cv::circle(click.positive ? foreground : background, click.at, kFallbackDotRadius, cv::Scalar(255), cv::FILLED);
        return paint::GrabCutSegmenter::fromStrokes(image, foreground, background, 3, kFallbackWorkPixels);
    };
}

paint::RegionMask SmartClickTool::regionFor(const QPoint& pixel, Qt::KeyboardModifiers modifiers) const
{
    const paint::SmartClickSegmenter::Click click{{pixel.x(), pixel.y()}, !(modifiers & Qt::ShiftModifier)};
    if (!click.positive && !inSessionRegion(click.at))
        return {};  // a take-back: no preview
    if (m_session)
        return m_session->regionWith(click);
    return finder()({click}, classFor(pixel, modifiers), document()->labels());
}

void SmartClickTool::mousePressed(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->button() != Qt::LeftButton || !document())
        return;
    click(pixelOf(imagePos), event->modifiers());
}

void SmartClickTool::click(const QPoint& pixel, Qt::KeyboardModifiers modifiers)
{
    LabelDocument* doc = document();
    if (!QRect(0, 0, doc->size().width, doc->size().height).contains(pixel) || doc->editing())
        return;
    if (m_watcher.isRunning()) {
        emit message(tr("Smart click: still preparing this image's prediction…"));
        return;
    }
    const paint::SmartClickSegmenter::Click click{{pixel.x(), pixel.y()}, !(modifiers & Qt::ShiftModifier)};
    if (!click.positive && !inSessionRegion(click.at)) {
        takeBackAt(pixel);  // labels of an earlier session, or of any other tool
        return;
    }
    if (!m_session)
        m_session.emplace(finder(), classFor(pixel, modifiers), doc->labels());
    paint::RegionMask next = m_session->regionWith(click);
    const cv::Rect change = m_session->changeOf(next);
    m_applying = true;
    doc->beginEdit();
    if (!change.empty()) {
        m_session->apply(doc->touch(change), click, std::move(next), settings()->guard());
        doc->notifyChanged(change);
    }
    doc->endEdit(click.positive ? tr("Smart click") : tr("Smart click (take back)"));
    m_applying = false;
    m_hover = {};
    m_hoverTint = {};
    requestRepaint();
}

bool SmartClickTool::inSessionRegion(const cv::Point& pixel) const
{
    if (!m_session)
        return false;
    const paint::RegionMask& region = m_session->region();
    return region.bounds.contains(pixel) && region.mask.at<std::uint8_t>(pixel - region.bounds.tl()) != 0;
}

// Shift+click outside the session's region: the pixels of the clicked label that a click of that
// label there would take become unlabelled, as one edit (the session in progress ends). The user
// then labels them with the right class; the model cannot say what they were before.
void SmartClickTool::takeBackAt(const QPoint& pixel)
{
    LabelDocument* doc = document();
    const std::uint8_t label = doc->labels().at<std::uint8_t>(pixel.y(), pixel.x());
    if (label == data::kUnlabelled) {
        emit message(tr("Shift+click takes labels back: this pixel has none."));
        return;
    }
    endSession();
    paint::RegionMask region = finder()({{{pixel.x(), pixel.y()}, true}}, label, doc->labels());
    if (!region.empty()) {
        const cv::Mat sameLabel = doc->labels()(region.bounds) == label;
        region.mask &= sameLabel;
    }
    if (region.empty() || region.area() == 0) {
        emit message(tr("Shift+click found nothing to take back here."));
        return;
    }
    m_applying = true;
    const std::int64_t changed = doc->paintRegion(region, data::kUnlabelled, settings()->guard(), tr("Smart click (take back)"));
    m_applying = false;
    m_hover = {};
    m_hoverTint = {};
    requestRepaint();
    emit message(changed > 0 ? tr("Took back %n pixel(s): they are unlabelled now.", nullptr, int(changed))
                             : tr("Shift+click: the locks keep these labels (Only unlabelled pixels, or a locked class)."));
}

void SmartClickTool::mouseMoved(QMouseEvent* event, const QPointF& imagePos)
{
    if (event->buttons() != Qt::NoButton)
        return;
    m_hoverPixel = pixelOf(imagePos);
    m_hoverModifiers = event->modifiers();
    // GrabCut is too slow to follow the mouse: the fallback shows no preview.
    if (m_segmenter)
        m_hoverTimer.start();
}

void SmartClickTool::mouseLeft() { clearHover(); }

void SmartClickTool::clearHover()
{
    m_hoverTimer.stop();
    m_hoverPixel = {-1, -1};  // also for a segmenter that comes later (its finished() updates the hover)
    m_hover = {};
    m_hoverTint = {};
    requestRepaint();
}

void SmartClickTool::previewAt(const QPoint& pixel, Qt::KeyboardModifiers modifiers)
{
    m_hoverPixel = pixel;
    m_hoverModifiers = modifiers;
    updateHover();
}

void SmartClickTool::updateHover()
{
    LabelDocument* doc = document();
    m_hover = {};
    m_hoverTint = {};
    if (doc && m_segmenter && QRect(0, 0, doc->size().width, doc->size().height).contains(m_hoverPixel)) {
        m_hover = regionFor(m_hoverPixel, m_hoverModifiers);
        if (!m_hover.empty()) {
            const QRgb colour = canvas()->overlayStyle().colors[std::size_t(std::clamp(classFor(m_hoverPixel, m_hoverModifiers), 0, 255))];
            m_hoverTint = maskTint(m_hover.mask, qPremultiply(qRgba(qRed(colour), qGreen(colour), qBlue(colour), 150)));
        }
    }
    requestRepaint();
}

void SmartClickTool::paintOverlay(QPainter& painter)
{
    if (m_hoverTint.isNull())
        return;
    painter.drawImage(QPointF(m_hover.bounds.x, m_hover.bounds.y), m_hoverTint);
    // The click's own pixel, so the user sees where the region is anchored.
    painter.setPen(QPen(Qt::white, 0));
    painter.drawRect(QRectF(m_hoverPixel.x() - 1.5, m_hoverPixel.y() - 1.5, 4, 4));
}

}  // namespace segstudio::ui::editor
