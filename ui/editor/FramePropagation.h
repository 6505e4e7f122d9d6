#pragma once

#include "FrameNavigator.h"

#include "data/labels/ClassSchema.h"
#include "paint/LabelPropagator.h"
#include "paint/WriteGuard.h"

#include <QFutureWatcher>
#include <QImage>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <opencv2/core.hpp>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::ui::editor {

class LabelDocument;

// Propagate from Previous / Next Frame (issue 51): the labels of the nearest labelled frame of the
// open image's sequence, carried onto it by optical flow (paint::LabelPropagator). Reading that
// frame and its label map, and the flow, run on a worker (document::workerPool()); the result
// lands on the open image as one undoable edit (a PaintLabels command, as every tool's edit),
// only where the editor's locks allowed when it started and only on pixels nobody edited while it
// ran. Given the model's prediction of the open image, pixels where a carried label and a sure
// prediction disagree come back as a tint for the canvas (reviewChanged) until that edit is undone.
// Requirements: GUI thread; the document passed to start() stays open until finished() or cancel()
//   (the editor cancels on every image switch, close and dataset job).
// Guarantees: one job at a time (a new start() supersedes the last); a cancelled or superseded
//   job's result is dropped, never applied; the document's labels change only through its undo
//   stack, by exactly one step, and only once no stroke of another tool is in progress.
class FramePropagation : public QObject {
    Q_OBJECT

public:
    static constexpr QRgb kReviewColour = qRgba(200, 0, 200, 200);  // premultiplied magenta, as the error layer

    struct Source {
        std::filesystem::path image;
        std::filesystem::path labelMap;
        std::string key;  // project-relative image path, for the messages
        std::string predictionKey;  // its name in the prediction cache (data::PredictionCache::keyOf)
    };
    struct Request {
        FrameNavigator::Direction direction = FrameNavigator::Direction::Previous;
        std::vector<Source> sources;  // the labelled frames that way, nearest first: the first with labels on disk is taken
        data::ClassSchema schema;
        paint::WriteGuard guard;
        paint::LabelPropagator::Prediction prediction;  // of the open image; empty: none
        // The model's scores of the open image (the cache's) and the run and checkpoint whose
        // cache holds the frames' own (empty: none). With both, the model's prediction is first
        // corrected by the source frame's labels (paint::PredictionCorrector, issue 61.2): what the
        // model got wrong there it gets wrong a second later.
        cv::Mat scores;
        std::filesystem::path predictionRun;
        std::filesystem::path predictionCheckpoint;
        int minConfidence = paint::LabelPropagator::Parameters().minConfidence;  // 0..255: a "sure" prediction
        // 0..255: how sure the prediction must be to fill where the flow failed (LabelPropagator's fillAbove).
        int fillAbove = paint::LabelPropagator::Parameters().fillAbove;
    };

    explicit FramePropagation(QObject* parent = nullptr);
    ~FramePropagation() override;

    bool start(LabelDocument* doc, Request request);  // false when there is nothing to start
    void cancel();
    bool isRunning() const { return m_document != nullptr; }  // from start() until finished() or cancel()

signals:
    void statusMessage(const QString& text);
    void reviewChanged(const QImage& tint);  // null: nothing marked for review (any more)
    void finished(bool applied);

private:
    // What the worker hands back.
    struct Outcome {
        std::string sourceKey;  // the frame the labels came from; empty when none had labels
        paint::LabelPropagator::Result result;
        QImage review;  // the review mask as drawn; null when nothing disagrees
        bool locked = false;  // the locks kept every pixel of the open image
        bool corrected = false;  // the model's prediction was corrected by the source's labels
        std::string error;
        bool cancelled = false;
    };

    static Outcome carry(const Request& request, const cv::Mat& targetImage, const cv::Mat& targetLabels,
                         const std::atomic<bool>& cancelled);
    // The open image's prediction corrected by the source frame's labels; nullopt where no scores
    // were given, the cache has no current scores of the source (never predicted by this state of
    // the checkpoint), the labels hold fewer than two of the model's classes, or it fails (the
    // plain prediction is then used: a correction is a hint).
    static std::optional<paint::LabelPropagator::Prediction> corrected(const Request& request, const Source& source,
                                                                       const cv::Mat& sourceImage,
                                                                       const cv::Mat& sourceLabels,
                                                                       const cv::Mat& targetImage);
    void jobFinished();
    void apply();
    void finish(bool applied, const QString& message);
    void releaseMaps();
    void watchUndo(LabelDocument* document);
    void clearReview();

    QFutureWatcher<Outcome> m_job;
    quint64 m_generation = 0;  // bumped by every start and cancel: an older result is stale
    quint64 m_jobGeneration = 0;
    std::shared_ptr<std::atomic<bool>> m_cancelled;  // the running job's: it skips the flow once set
    QPointer<LabelDocument> m_document;  // the image the running job is for
    FrameNavigator::Direction m_direction = FrameNavigator::Direction::Previous;
    cv::Mat m_before;  // its labels when the job started
    Outcome m_outcome;  // a result waiting for a stroke in progress to end
    QTimer m_retry;
    QMetaObject::Connection m_undoWatch;  // the review goes when the edit is undone
    int m_editIndex = 0;                  // the undo stack's index right after the edit
    bool m_reviewShown = false;
};

}  // namespace segstudio::ui::editor
