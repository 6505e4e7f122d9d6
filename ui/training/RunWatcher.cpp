#include "RunWatcher.h"

#include "common/BackgroundPool.h"

#include "run/MetricsReader.h"
#include "run/RunLayout.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>
#include <QtConcurrent>

namespace segstudio::ui::training {

namespace {
constexpr int kDefaultPollMs = 2000;
// ~1,600 records per step: what the GUI thread does with one step (plots, panel) stays well
// under a frame, however large the file it catches up with.
constexpr std::size_t kChunkBytes = std::size_t(256) << 10;

QString metricsFile(const QString& dir)
{
    return QString::fromStdString(run::RunLayout(dir.toStdString()).metricsFile().string());
}
}  // namespace

RunWatcher::RunWatcher(QObject* parent)
    : QObject(parent), m_watcher(new QFileSystemWatcher(this)), m_timer(new QTimer(this))
{
    m_timer->setInterval(kDefaultPollMs);
    connect(m_timer, &QTimer::timeout, this, &RunWatcher::poll);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &RunWatcher::poll);
    // The folder changes when metrics.jsonl appears or is replaced: watch the new file too.
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
        watchPaths();
        poll();
    });
    connect(&m_read, &QFutureWatcher<std::shared_ptr<Chunk>>::finished, this, &RunWatcher::deliver);
}

RunWatcher::~RunWatcher()
{
    m_read.disconnect(this);
    m_read.waitForFinished();  // the worker holds its own reference to the reader
}

void RunWatcher::setPollInterval(int ms) { m_timer->setInterval(ms); }

bool RunWatcher::isReading() const { return m_read.isRunning() || !m_delivered || m_pollAgain; }

void RunWatcher::setRunDirectory(const QString& dir)
{
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    m_dir = dir;
    ++m_generation;
    m_pollAgain = false;
    m_reader.reset();
    emit reset();
    if (dir.isEmpty()) {
        m_timer->stop();
        return;
    }
    m_reader = std::make_shared<run::MetricsReader>(metricsFile(dir).toStdString());
    watchPaths();
    m_timer->start();
    poll();
}

void RunWatcher::watchPaths()
{
    if (m_dir.isEmpty())
        return;
    if (QDir(m_dir).exists() && !m_watcher->directories().contains(m_dir))
        m_watcher->addPath(m_dir);
    const QString file = metricsFile(m_dir);
    if (QFileInfo::exists(file) && !m_watcher->files().contains(file))
        m_watcher->addPath(file);
}

void RunWatcher::poll()
{
    if (!m_reader)
        return;
    if (m_read.isRunning() || !m_delivered) {
        m_pollAgain = true;  // the file grew while it was being read: once more after this read
        return;
    }
    startRead();
}

void RunWatcher::startRead()
{
    m_pollAgain = false;
    m_delivered = false;
    const auto reader = m_reader;
    const quint64 generation = m_generation;
    m_read.setFuture(common::runInBackground([reader, generation] {
        auto chunk = std::make_shared<Chunk>();
        chunk->records = reader->poll(kChunkBytes);
        chunk->restarted = reader->restarted();
        chunk->atEnd = reader->atEnd();
        for (const auto& warning : reader->takeWarnings())
            chunk->warnings << QString::fromStdString(warning);
        chunk->generation = generation;
        return chunk;
    }));
}

void RunWatcher::deliver()
{
    if (m_delivered)
        return;  // waitForIdle() handed it out already
    m_delivered = true;
    const std::shared_ptr<Chunk> chunk = m_read.result();
    if (chunk->generation == m_generation) {
        if (chunk->restarted)
            emit reset();
        for (const QString& message : std::as_const(chunk->warnings))
            emit warning(message);
        if (!chunk->records.empty())
            emit recordsAdded(chunk->records);
        if (!chunk->atEnd)
            m_pollAgain = true;  // more is waiting: the next chunk right away
    }
    if (m_pollAgain && m_reader)
        startRead();
}

void RunWatcher::waitForIdle()
{
    while (m_read.isRunning() || !m_delivered) {
        m_read.waitForFinished();
        deliver();
    }
}

}  // namespace segstudio::ui::training
