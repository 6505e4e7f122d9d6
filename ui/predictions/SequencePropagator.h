#pragma once

#include <QList>
#include <QObject>

#include <cstddef>
#include <functional>

class QWidget;

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::predictions {

class PredictionsDock;

// "Propagate labels along the sequence" for a selection of images (the browser's context menu,
// issue 51): one image selected means every frame of its sequence, several mean those frames
// (paint::PropagationBatch::framesFor). Asks first, saying how many frames may be written and how
// many of them the chosen checkpoint has predicted (offering to predict the others first), then
// hands the frames to the document (ProjectDocument::propagateAlongSequence: one undoable job with
// progress and Cancel in the status bar). The model's sure predictions fill what the flow cannot
// carry, as the editor's Propagate does; how sure is the editor's Accept threshold (a callback, so
// this room needs no editor), at least even odds.
// Requirements: GUI thread; the document outlives it or is reset first (setDocument(nullptr)).
class SequencePropagator : public QObject {
    Q_OBJECT

public:
    explicit SequencePropagator(PredictionsDock* predictions, QObject* parent = nullptr);

    void setDocument(document::ProjectDocument* document) { m_document = document; }
    void setMinConfidence(std::function<int()> minConfidence) { m_minConfidence = std::move(minConfidence); }

    // The question box, then propagate(); parent is the box's window.
    void ask(const QList<std::size_t>& entries, QWidget* parent);
    // Starts the job; false (and statusMessage says why) when it cannot.
    bool propagate(const QList<std::size_t>& entries);

signals:
    void statusMessage(const QString& text);

private:
    bool canStart();  // false, and said why, when the document cannot take the job now

    PredictionsDock* m_predictions;
    document::ProjectDocument* m_document = nullptr;
    std::function<int()> m_minConfidence;
};

}  // namespace segstudio::ui::predictions
