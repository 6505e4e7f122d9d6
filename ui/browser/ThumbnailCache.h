#pragma once

#include "ImageSource.h"
#include "data/labels/ClassSchema.h"

#include <QCache>
#include <QHash>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QThreadPool>
#include <deque>
#include <filesystem>
#include <memory>
#include <vector>

namespace segstudio::ui::browser {

// Thumbnails of the browser's rows, made on worker threads only when a view asks for them (so
// only what is visible is decoded), kept in a memory LRU bounded in bytes and in a disk cache.
// The newest request is served first: after a fast scroll the rows now on screen come before the
// ones that scrolled past, and requests beyond the queue limit are dropped (a view asks again).
// Requirements: GUI thread only; rows refer to the sources given to setSources().
// Guarantees: thumbnail() never blocks on I/O; thumbnailReady/thumbnailFailed come on the GUI
//   thread and only for the current sources; a failure is remembered with its reason.
class ThumbnailCache : public QObject {
    Q_OBJECT

public:
    using Source = ImageSource;

    explicit ThumbnailCache(QObject* parent = nullptr);
    ~ThumbnailCache() override;

    void setSources(std::vector<Source> sources, data::ClassSchema schema);
    void setDiskCacheDir(const QString& dir);  // empty: memory only
    // Renders under way at the old size are dropped (no signal for them): a view asks again.
    void setThumbnailSize(QSize size);
    QSize thumbnailSize() const { return m_size; }
    void setMemoryBudget(qint64 bytes);
    qint64 memoryBudget() const { return m_memory.maxCost(); }
    qint64 memoryUsed() const { return m_memory.totalCost(); }

    // The thumbnail when it is ready; otherwise a null image, and the row is queued unless it failed.
    QImage thumbnail(int row, bool overlay);
    QString problem(int row) const { return m_problems.value(row); }
    void invalidate(int row);  // after its label map changed
    int pendingCount() const { return int(m_queue.size()) + m_inFlight; }

signals:
    void thumbnailReady(int row);
    void thumbnailFailed(int row, const QString& reason);

private:
    using Key = quint64;
    static Key keyOf(int row, bool overlay) { return (Key(row) << 1) | (overlay ? 1 : 0); }

    void enqueue(Key key);
    void dispatch();
    void finish(Key key, std::uint64_t generation, const QImage& image, const QString& problem);

    QThreadPool m_pool;
    std::shared_ptr<const std::vector<Source>> m_sources;
    std::shared_ptr<const data::ClassSchema> m_schema;
    QString m_diskDir;
    QSize m_size{160, 120};
    QCache<Key, QImage> m_memory;
    std::deque<Key> m_queue;
    QSet<Key> m_queued;  // queued or in flight
    QHash<int, QString> m_problems;
    int m_inFlight = 0;
    std::uint64_t m_generation = 0;
};

}  // namespace segstudio::ui::browser
