#pragma once

#include "data/RunMetrics.h"

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

class QFileSystemWatcher;
class QTimer;

namespace segstudio::ui {

// Watches one run directory's metrics.jsonl, wherever the run was started (this GUI, a terminal,
// another machine writing to a shared folder), and hands out new points as they are flushed.
// A QFileSystemWatcher gives prompt updates; a slow QTimer poll backs it up (watchers miss
// changes on some file systems and lose the file when it is replaced).
// Requirements: GUI thread. Each poll reads only the bytes appended since the last one.
// Guarantees: setRunDirectory() emits reset() and then the points already in the file (on the
//   next poll(), which it runs at once); a malformed line is reported once through error().
class RunWatcher : public QObject {
    Q_OBJECT

public:
    explicit RunWatcher(QObject* parent = nullptr);
    ~RunWatcher() override;

    void setRunDirectory(const QString& dir);  // empty = watch nothing
    QString runDirectory() const { return m_dir; }
    void setPollInterval(int ms);

public slots:
    void poll();

signals:
    void reset();
    void pointsAdded(const std::vector<segstudio::data::MetricsPoint>& points);
    void error(const QString& message);

private:
    void watchPaths();

    QString m_dir;
    std::unique_ptr<data::RunMetrics> m_metrics;
    QFileSystemWatcher* m_watcher;
    QTimer* m_timer;
    QString m_lastError;
};

}  // namespace segstudio::ui
