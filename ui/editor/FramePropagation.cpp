#include "FramePropagation.h"

#include "LabelDocument.h"
#include "MaskTint.h"
#include "ReleaseOnWorker.h"

#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelClass.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "document/WorkerPool.h"
#include "paint/PredictionCorrector.h"

#include <QFileInfo>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <opencv2/imgproc.hpp>

#include <cstdint>
#include <system_error>
#include <utility>

namespace segstudio::ui::editor {

namespace {

// "93", "1.2": whole percents from 10 on, one decimal below, so a small share never reads 0.
QString percent(std::int64_t part, std::int64_t total)
{
    const double value = total > 0 ? 100.0 * double(part) / double(total) : 0.0;
    return QString::number(value, 'f', value < 10.0 ? 1 : 0);
}

QString frameName(const std::string& key) { return QFileInfo(QString::fromStdString(key)).completeBaseName(); }

}  // namespace

FramePropagation::FramePropagation(QObject* parent) : QObject(parent)
{
    connect(&m_job, &QFutureWatcherBase::finished, this, &FramePropagation::jobFinished);
    // A result that comes in the middle of another tool's stroke waits for the stroke to end: the
    // stroke is one undo step, the propagation another.
    m_retry.setSingleShot(true);
    m_retry.setInterval(50);
    connect(&m_retry, &QTimer::timeout, this, &FramePropagation::apply);
}

// A job still running holds only copies and its own cancel flag: it ends on its own, unseen. (No
// signal from here: the editor that listens is being destroyed.)
FramePropagation::~FramePropagation()
{
    if (m_cancelled)
        m_cancelled->store(true);
}

bool FramePropagation::start(LabelDocument* doc, Request request)
{
    cancel();  // one at a time: the newest request wins
    if (!doc || request.sources.empty())
        return false;
    m_jobGeneration = ++m_generation;
    m_cancelled = std::make_shared<std::atomic<bool>>(false);
    m_document = doc;
    m_direction = request.direction;
    m_before = doc->labels().clone();  // the user may keep painting meanwhile
    // The image is shared, read-only: the document never writes its pixels.
    m_job.setFuture(QtConcurrent::run(
        document::workerPool(),
        [request = std::move(request), image = doc->image(), labels = m_before, cancelled = m_cancelled] {
            return carry(request, image, labels, *cancelled);
        }));
    emit statusMessage(tr("Carrying the labels of the nearest labelled frame…"));
    return true;
}

void FramePropagation::cancel()
{
    ++m_generation;
    if (m_cancelled)
        m_cancelled->store(true);
    m_cancelled.reset();
    m_retry.stop();
    m_document = nullptr;
    releaseMaps();
    clearReview();
}

void FramePropagation::releaseMaps()
{
    // Two full-size maps (and a tint): freed on a worker, as the editor frees an image it leaves.
    if (m_before.empty() && m_outcome.result.labels.empty())
        return;
    releaseOnWorker(std::move(m_before), std::move(m_outcome.result.labels), std::move(m_outcome.result.review),
                    std::move(m_outcome.review));
    m_before = cv::Mat();
    m_outcome = Outcome();
}

FramePropagation::Outcome FramePropagation::carry(const Request& request, const cv::Mat& targetImage,
                                                  const cv::Mat& targetLabels, const std::atomic<bool>& cancelled)
{
    Outcome outcome;
    try {
        cv::Mat writable;
        cv::LUT(targetLabels, cv::Mat(1, 256, CV_8UC1, const_cast<std::uint8_t*>(request.guard.table().data())), writable);
        if (cv::countNonZero(writable) == 0) {
            outcome.locked = true;
            return outcome;
        }
        // The nearest frame whose label map holds labels: a status can say "in progress" of a map
        // that was emptied since, or name one that is gone.
        cv::Mat sourceLabels;
        const Source* source = nullptr;
        for (const Source& candidate : request.sources) {
            if (cancelled.load()) {
                outcome.cancelled = true;
                return outcome;
            }
            std::error_code missing;
            if (!std::filesystem::exists(candidate.labelMap, missing))
                continue;
            cv::Mat labels = data::readLabelMap(candidate.labelMap, request.schema, targetLabels.size());
            if (cv::countNonZero(labels != data::kUnlabelled) == 0)
                continue;
            sourceLabels = std::move(labels);
            source = &candidate;
            break;
        }
        if (!source)
            return outcome;
        outcome.sourceKey = source->key;
        const cv::Mat sourceImage = data::readImageRgb(source->image);
        if (sourceImage.size() != targetImage.size())
            throw data::DataError(source->image.string(),
                                  "the frame is " + std::to_string(sourceImage.cols) + "x" + std::to_string(sourceImage.rows)
                                      + " but the open image is " + std::to_string(targetImage.cols) + "x"
                                      + std::to_string(targetImage.rows));
        // The correction (0.3 s at 360x480, 3 s at 12 megapixels) and the flow (DIS, ~0.1 s a frame
        // at 640 px) are the long parts: not for an image already left.
        if (cancelled.load()) {
            outcome.cancelled = true;
            return outcome;
        }
        const auto correctedPrediction = corrected(request, *source, sourceImage, sourceLabels, targetImage);
        outcome.corrected = correctedPrediction.has_value();
        if (cancelled.load()) {
            outcome.cancelled = true;
            return outcome;
        }
        paint::LabelPropagator::Parameters parameters;
        parameters.minConfidence = request.minConfidence;
        parameters.fillAbove = request.fillAbove;
        outcome.result = paint::LabelPropagator(parameters).propagate(
            sourceImage, sourceLabels, targetImage, targetLabels, request.guard,
            correctedPrediction ? *correctedPrediction : request.prediction);
        if (outcome.result.disagree > 0)
            outcome.review = maskTint(outcome.result.review, kReviewColour);
    } catch (const std::exception& e) {
        outcome.error = e.what();
    }
    return outcome;
}

std::optional<paint::LabelPropagator::Prediction> FramePropagation::corrected(const Request& request,
                                                                              const Source& source,
                                                                              const cv::Mat& sourceImage,
                                                                              const cv::Mat& sourceLabels,
                                                                              const cv::Mat& targetImage)
{
    if (request.scores.empty() || request.predictionCheckpoint.empty() || source.predictionKey.empty())
        return std::nullopt;
    // The cache is cheap to redo and the correction only a hint: a missing, stale or damaged entry,
    // or a correction that fails, means the plain prediction, not a failed propagation.
    try {
        const data::PredictionCache cache(request.predictionRun, request.predictionCheckpoint);
        const auto entry = cache.load(source.predictionKey, request.schema, sourceImage.size());
        if (!entry || entry->scores.empty() || entry->scores.channels() != request.scores.channels())
            return std::nullopt;
        paint::PredictionCorrector corrector;
        corrector.learn(source.key, sourceImage, entry->scores, sourceLabels);
        if (!corrector.isReady())
            return std::nullopt;
        const auto prediction = corrector.correct(targetImage, request.scores);
        return paint::LabelPropagator::Prediction{prediction.classes, prediction.confidence};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void FramePropagation::jobFinished()
{
    if (m_jobGeneration != m_generation || !m_document)
        return;  // cancelled, or superseded by a newer start
    m_outcome = m_job.result();
    m_job.setFuture(QFuture<Outcome>());  // the outcome's maps are m_outcome's alone from here
    if (m_outcome.cancelled) {
        cancel();
        return;
    }
    if (!m_outcome.error.empty()) {
        finish(false, tr("Could not propagate the labels: %1").arg(QString::fromStdString(m_outcome.error)));
        return;
    }
    if (m_outcome.locked) {
        finish(false, tr("The locks keep every pixel of this image: there is nothing to carry labels to."));
        return;
    }
    if (m_outcome.sourceKey.empty()) {
        finish(false, m_direction == FrameNavigator::Direction::Previous
                          ? tr("No frame before this one has labels on disk to carry.")
                          : tr("No frame after this one has labels on disk to carry."));
        return;
    }
    apply();
}

void FramePropagation::apply()
{
    LabelDocument* doc = m_document;
    if (!doc)
        return;
    if (doc->editing()) {
        m_retry.start();
        return;
    }
    const paint::LabelPropagator::Result& result = m_outcome.result;
    const QString name = frameName(m_outcome.sourceKey);
    const std::int64_t total = std::int64_t(result.labels.total());
    if (result.carried == 0 && result.filledByModel == 0) {
        finish(false, tr("Nothing could be carried from %1: the flow between the frames cannot be trusted anywhere.")
                          .arg(name));
        return;
    }
    // What the propagation changes, except pixels the user edited since it started: their edit is
    // newer than the labels it read.
    const cv::Mat change = (result.labels != m_before) & (doc->labels() == m_before);
    if (cv::countNonZero(change) == 0) {
        finish(false, tr("The labels carried from %1 change nothing here.").arg(name));
        return;
    }
    const cv::Rect bounds = cv::boundingRect(change);
    doc->beginEdit();
    cv::Mat target = doc->touch(bounds)(bounds);
    result.labels(bounds).copyTo(target, change(bounds));
    doc->notifyChanged(bounds);
    doc->endEdit(tr("Propagate labels from %1").arg(name));

    QString message = tr("Carried %1 % of the pixels from %2").arg(percent(result.carried, total), name);
    if (result.filledByModel > 0)
        message += m_outcome.corrected
                       ? tr("; the model, corrected by its labels, filled %1 %").arg(percent(result.filledByModel, total))
                       : tr("; the model filled %1 %").arg(percent(result.filledByModel, total));
    if (result.disagree > 0)
        message += tr("; %1 % disagree with the model (marked)").arg(percent(result.disagree, total));
    const QImage review = std::exchange(m_outcome.review, QImage());
    finish(true, message);
    if (!review.isNull()) {
        watchUndo(doc);
        m_reviewShown = true;
        emit reviewChanged(review);
    }
}

void FramePropagation::finish(bool applied, const QString& message)
{
    m_document = nullptr;
    m_cancelled.reset();
    releaseMaps();
    clearReview();  // the last propagation's marks, on this image
    emit statusMessage(message);
    emit finished(applied);
}

void FramePropagation::watchUndo(LabelDocument* document)
{
    QUndoStack* stack = document->undoStack();
    m_editIndex = stack->index();
    m_undoWatch = connect(stack, &QUndoStack::indexChanged, this, [this](int index) {
        if (index < m_editIndex)
            clearReview();  // the marks belong to the labels the undo took back
    });
}

void FramePropagation::clearReview()
{
    disconnect(m_undoWatch);
    m_undoWatch = {};
    if (std::exchange(m_reviewShown, false))
        emit reviewChanged(QImage());
}

}  // namespace segstudio::ui::editor
