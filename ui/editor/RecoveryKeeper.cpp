#include "RecoveryKeeper.h"

#include "LabelDocument.h"

#include "data/labels/RecoveryStore.h"

#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>

namespace segstudio::ui::editor {

RecoveryKeeper::RecoveryKeeper(QObject* parent) : QObject(parent), m_timer(new QTimer(this)), m_worker(new QThreadPool(this))
{
    m_worker->setMaxThreadCount(1);  // one thread: the requests run in the order they were made
    m_timer->setSingleShot(true);
    m_timer->setInterval(kDefaultDelayMs);
    connect(m_timer, &QTimer::timeout, this, &RecoveryKeeper::syncNow);
}

RecoveryKeeper::~RecoveryKeeper()
{
    setDocument(nullptr);
    waitForWrites();
}

void RecoveryKeeper::setStore(std::shared_ptr<const data::RecoveryStore> store)
{
    if (m_timer->isActive())
        syncNow();
    m_store = std::move(store);
}

void RecoveryKeeper::setSchema(data::ClassSchema schema) { m_schema = std::move(schema); }

void RecoveryKeeper::setDocument(LabelDocument* document)
{
    if (document == m_document)
        return;
    if (m_document) {
        if (m_timer->isActive())
            syncNow();
        m_document->disconnect(this);
        m_document->undoStack()->disconnect(this);
    }
    m_document = document;
    if (!m_document)
        return;
    // indexChanged covers every finished edit, undo and redo; modifiedChanged a save or a revert.
    connect(m_document->undoStack(), &QUndoStack::indexChanged, this, &RecoveryKeeper::schedule);
    connect(m_document, &LabelDocument::modifiedChanged, this, &RecoveryKeeper::schedule);
}

void RecoveryKeeper::setDelay(int milliseconds) { m_timer->setInterval(std::max(0, milliseconds)); }

void RecoveryKeeper::schedule()
{
    m_timer->start();
}

void RecoveryKeeper::syncNow()
{
    m_timer->stop();
    if (!m_document || !m_store)
        return;
    if (m_document->isModified())
        enqueueStore(m_document->imageKey(), m_document->labels().clone());
    else
        enqueueDiscard(m_document->imageKey());
}

void RecoveryKeeper::enqueueStore(const std::string& key, cv::Mat labels)
{
    m_worker->start([this, store = m_store, schema = m_schema, key, labels = std::move(labels)] {
        try {
            store->store(key, labels, schema);
            m_lastWriteFailed = false;
        } catch (const std::exception& error) {
            m_lastWriteFailed = true;
            report(error.what());
        }
    });
}

void RecoveryKeeper::enqueueDiscard(const std::string& key)
{
    m_worker->start([store = m_store, key] { store->discard(key); });
}

void RecoveryKeeper::report(const std::string& error)
{
    // From the worker: the signal is emitted on the GUI thread, and dropped if this object is gone.
    QMetaObject::invokeMethod(
        this, [this, message = QString::fromStdString(error)] { emit writeFailed(message); }, Qt::QueuedConnection);
}

void RecoveryKeeper::waitForWrites() { m_worker->waitForDone(); }

}  // namespace segstudio::ui::editor
