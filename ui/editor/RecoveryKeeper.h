#pragma once

#include "data/labels/ClassSchema.h"

#include <QObject>

#include <opencv2/core/mat.hpp>

#include <atomic>
#include <memory>
#include <string>

class QThreadPool;
class QTimer;

namespace segstudio::data {
inline namespace labels { class RecoveryStore; }
}

namespace segstudio::ui::editor {

class LabelDocument;

// Keeps the project's recovery folder describing exactly the unsaved state of the open document:
// shortly after each finished edit, undo or redo, it writes the document's labels there when they
// differ from the saved state, and removes the recovery copy when the document is back at its
// saved state (an undo to the saved state, a save, a discard). A crash then loses at most the
// last delay's work, and never brings back an edit the user undid.
// Requirements: GUI thread; the document passed to setDocument() lives until setDocument(another).
// Guarantees: the GUI thread only copies the label map (~3 ms for 12 MP); encoding and writing
//   run on one worker thread, in request order, so a removal never overtakes an earlier write.
//   setDocument() and the destructor write what is pending before letting go.
class RecoveryKeeper : public QObject {
    Q_OBJECT

public:
    static constexpr int kDefaultDelayMs = 700;

    explicit RecoveryKeeper(QObject* parent = nullptr);
    ~RecoveryKeeper() override;

    void setStore(std::shared_ptr<const data::RecoveryStore> store);  // nullptr: no project
    void setSchema(data::ClassSchema schema);
    void setDocument(LabelDocument* document);
    void setDelay(int milliseconds);

    void syncNow();        // writes or removes the recovery copy of the document now (queued)
    void waitForWrites();  // blocks until the worker has done everything asked so far
    bool lastWriteFailed() const { return m_lastWriteFailed; }

signals:
    void writeFailed(const QString& message);

private:
    void schedule();
    void enqueueStore(const std::string& key, cv::Mat labels);
    void enqueueDiscard(const std::string& key);
    void report(const std::string& error);

    std::shared_ptr<const data::RecoveryStore> m_store;
    data::ClassSchema m_schema;
    LabelDocument* m_document = nullptr;
    QTimer* m_timer;
    QThreadPool* m_worker;
    std::atomic<bool> m_lastWriteFailed{false};
};

}  // namespace segstudio::ui::editor
