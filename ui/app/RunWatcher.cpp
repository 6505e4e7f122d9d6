#include "RunWatcher.h"

#include "data/DataError.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

namespace segstudio::ui {

namespace {
constexpr int kDefaultPollMs = 2000;
}

RunWatcher::RunWatcher(QObject* parent)
    : QObject(parent), m_watcher(new QFileSystemWatcher(this)), m_timer(new QTimer(this))
{
    m_timer->setInterval(kDefaultPollMs);
    connect(m_timer, &QTimer::timeout, this, &RunWatcher::poll);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &RunWatcher::poll);
    // The directory changes when metrics.jsonl appears or is replaced: watch the new file too.
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
        watchPaths();
        poll();
    });
}

RunWatcher::~RunWatcher() = default;

void RunWatcher::setPollInterval(int ms) { m_timer->setInterval(ms); }

void RunWatcher::setRunDirectory(const QString& dir)
{
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    m_dir = dir;
    m_lastError.clear();
    m_metrics.reset();
    emit reset();
    if (dir.isEmpty()) {
        m_timer->stop();
        return;
    }
    m_metrics = std::make_unique<data::RunMetrics>(QDir(dir).filePath(QStringLiteral("metrics.jsonl")).toStdString());
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
    const QString file = QDir(m_dir).filePath(QStringLiteral("metrics.jsonl"));
    if (QFileInfo::exists(file) && !m_watcher->files().contains(file))
        m_watcher->addPath(file);
}

void RunWatcher::poll()
{
    if (!m_metrics)
        return;
    std::vector<data::MetricsPoint> points;
    try {
        points = m_metrics->poll();
    } catch (const data::DataError& failure) {
        const QString message = QString::fromStdString(failure.what());
        if (message != m_lastError) {  // the timer polls again and again: say it once
            m_lastError = message;
            emit error(message);
        }
        return;
    }
    m_lastError.clear();
    if (m_metrics->restarted())
        emit reset();
    if (!points.empty())
        emit pointsAdded(points);
}

}  // namespace segstudio::ui
