#pragma once

#include "paint/PredictionAcceptance.h"
#include "paint/WriteGuard.h"

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

// "Accept prediction" for a selection of images (the browser's context menu): asks where the
// predicted classes go (into unlabelled pixels, or everywhere), then hands the run's cached
// predictions to the document (ProjectDocument::acceptPredictions: one undoable job). The
// editor's confidence floor and class locks come from a callback, so this room needs no editor.
// Requirements: GUI thread; the document outlives it or is reset first (setDocument(nullptr)).
class PredictionAcceptor : public QObject {
    Q_OBJECT

public:
    struct Limits {
        int minConfidence = 0;  // 0..255
        paint::WriteGuard guard;
    };

    explicit PredictionAcceptor(PredictionsDock* predictions, QObject* parent = nullptr);

    void setDocument(document::ProjectDocument* document) { m_document = document; }
    void setLimits(std::function<Limits()> limits) { m_limits = std::move(limits); }

    // The question box, then accept(); parent is the box's window.
    void ask(const QList<std::size_t>& entries, QWidget* parent);
    // Starts the edit; false (and statusMessage says why) when it cannot.
    bool accept(const QList<std::size_t>& entries, bool unlabelledOnly);

signals:
    void statusMessage(const QString& text);

private:
    PredictionsDock* m_predictions;
    document::ProjectDocument* m_document = nullptr;
    std::function<Limits()> m_limits;
};

}  // namespace segstudio::ui::predictions
