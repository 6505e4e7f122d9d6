#include "ThumbnailCache.h"

#include "ThumbnailRenderer.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QtConcurrent>

namespace segstudio::ui::browser {

namespace {

// Enough to cover a couple of screens; older requests are for rows that scrolled away.
constexpr std::size_t kMaxQueued = 256;
constexpr qint64 kDefaultBudget = 64LL * 1024 * 1024;

qint64 costOf(const QImage& image)
{
    return std::max<qint64>(1, image.sizeInBytes());
}

}  // namespace

ThumbnailCache::ThumbnailCache(QObject* parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
    m_memory.setMaxCost(kDefaultBudget);
}

ThumbnailCache::~ThumbnailCache()
{
    m_queue.clear();
    ++m_generation;
    m_pool.waitForDone();
}

void ThumbnailCache::setSources(std::vector<Source> sources, data::ClassSchema schema)
{
    ++m_generation;
    m_sources = std::make_shared<const std::vector<Source>>(std::move(sources));
    m_schema = std::make_shared<const data::ClassSchema>(std::move(schema));
    m_memory.clear();
    m_queue.clear();
    m_queued.clear();
    m_problems.clear();
    // Jobs already running finish with an old generation and are ignored.
    m_inFlight = 0;
}

void ThumbnailCache::setDiskCacheDir(const QString& dir)
{
    m_diskDir = dir;
    if (!dir.isEmpty())
        QDir().mkpath(dir);
}

void ThumbnailCache::setThumbnailSize(QSize size)
{
    if (size == m_size)
        return;
    m_size = size;
    m_memory.clear();
    // Renders under way are at the old size: a new generation drops them when they finish (a view
    // asks for those rows again), so none is cached as if it were the new size. Rows still queued
    // have not started and render at the new size.
    ++m_generation;
    m_inFlight = 0;
    m_queued = QSet<Key>(m_queue.begin(), m_queue.end());
    // The dropped renders will not call dispatch(): start the queued rows now.
    dispatch();
}

void ThumbnailCache::setMemoryBudget(qint64 bytes)
{
    m_memory.setMaxCost(std::max<qint64>(1, bytes));
}

QImage ThumbnailCache::thumbnail(int row, bool overlay)
{
    if (!m_sources || row < 0 || row >= int(m_sources->size()))
        return {};
    const Key key = keyOf(row, overlay);
    if (const QImage* image = m_memory.object(key))
        return *image;
    if (!m_problems.contains(row))
        enqueue(key);
    return {};
}

void ThumbnailCache::invalidate(int row)
{
    m_memory.remove(keyOf(row, true));
    m_memory.remove(keyOf(row, false));
    m_problems.remove(row);
}

void ThumbnailCache::enqueue(Key key)
{
    if (m_queued.contains(key)) {
        // Already waiting: move it to the back, the end that is served first.
        const auto it = std::find(m_queue.begin(), m_queue.end(), key);
        if (it != m_queue.end()) {
            m_queue.erase(it);
            m_queue.push_back(key);
        }
        return;
    }
    m_queue.push_back(key);
    m_queued.insert(key);
    while (m_queue.size() > kMaxQueued) {
        m_queued.remove(m_queue.front());
        m_queue.pop_front();
    }
    dispatch();
}

void ThumbnailCache::dispatch()
{
    while (!m_queue.empty() && m_inFlight < m_pool.maxThreadCount()) {
        const Key key = m_queue.back();
        m_queue.pop_back();
        ++m_inFlight;
        const int row = int(key >> 1);
        const bool overlay = key & 1;
        const Source source = (*m_sources)[row];
        auto schema = m_schema;
        const QString diskDir = m_diskDir;
        const QSize size = m_size;
        const std::uint64_t generation = m_generation;
        (void)QtConcurrent::run(&m_pool, [this, key, source, schema, diskDir, size, overlay, generation]() {
            QImage image;
            QString problem;
            try {
                const QString cacheKey = diskDir.isEmpty()
                    ? QString()
                    : ThumbnailRenderer::cacheKey(source.image, source.labelMap, *schema, size, overlay);
                const QString cacheFile = cacheKey.isEmpty() ? QString() : diskDir + u'/' + cacheKey + QStringLiteral(".jpg");
                if (!cacheFile.isEmpty() && QFile::exists(cacheFile))
                    image = QImage(cacheFile).convertToFormat(QImage::Format_RGB888);
                if (image.isNull()) {
                    image = ThumbnailRenderer::render(source.image, source.labelMap, *schema, size, overlay);
                    // A failed cache write only costs a re-render next time.
                    if (!cacheFile.isEmpty()) {
                        // Written beside and renamed, so a reader never sees half a file.
                        QSaveFile file(cacheFile);
                        if (file.open(QIODevice::WriteOnly) && image.save(&file, "JPG", 90))
                            file.commit();
                    }
                }
            } catch (const std::exception& error) {
                problem = QString::fromStdString(error.what());
                image = {};
            }
            QMetaObject::invokeMethod(
                this, [this, key, generation, image, problem]() { finish(key, generation, image, problem); },
                Qt::QueuedConnection);
        });
    }
}

void ThumbnailCache::finish(Key key, std::uint64_t generation, const QImage& image, const QString& problem)
{
    if (generation != m_generation)
        return;
    --m_inFlight;
    m_queued.remove(key);
    const int row = int(key >> 1);
    if (image.isNull()) {
        m_problems.insert(row, problem);
        emit thumbnailFailed(row, problem);
    } else {
        m_memory.insert(key, new QImage(image), costOf(image));
        emit thumbnailReady(row);
    }
    dispatch();
}

}  // namespace segstudio::ui::browser
