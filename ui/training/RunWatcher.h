#pragma once

#include "run/MetricsRecord.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

class QFileSystemWatcher;
class QTimer;

namespace segstudio::run {
class MetricsReader;
}

namespace segstudio::ui::training {

// Watches one run folder's metrics.jsonl, wherever the run was started (this GUI, a terminal,
// another machine writing to a shared folder), and hands out new records as they are flushed.
// A QFileSystemWatcher gives prompt updates; a slow QTimer poll backs it up (watchers miss
// changes on some file systems and lose the file when it is replaced).
// Requirements: GUI thread.
// Guarantees:
//   - Reading and parsing run on a worker thread (one read at a time; a poll asked for meanwhile
//     runs after it), the records arrive on the GUI thread through recordsAdded(). A large file
//     comes in bounded chunks, one signal each, so the GUI stays responsive while it catches up.
//   - setRunDirectory() emits reset() and then the records already in the file; a result read
//     for the previous folder is dropped.
//   - A corrupt line is skipped and reported once through warning(), naming file and line.
class RunWatcher : public QObject {
    Q_OBJECT

public:
    explicit RunWatcher(QObject* parent = nullptr);
    ~RunWatcher() override;

    void setRunDirectory(const QString& dir);  // empty = watch nothing
    QString runDirectory() const { return m_dir; }
    void setPollInterval(int ms);
    bool isReading() const;
    // Waits until no read is running or queued and its records have been handed out (tests, and
    // callers that need the file's whole content now).
    void waitForIdle();

public slots:
    void poll();

signals:
    void reset();
    void recordsAdded(const std::vector<segstudio::run::MetricsRecord>& records);
    void warning(const QString& message);

private:
    struct Chunk {
        std::vector<run::MetricsRecord> records;
        QStringList warnings;
        bool restarted = false;
        bool atEnd = true;
        quint64 generation = 0;
    };
    void watchPaths();
    void startRead();
    void deliver();

    QString m_dir;
    std::shared_ptr<run::MetricsReader> m_reader;  // shared with the worker reading it
    quint64 m_generation = 0;                        // bumped per folder: stale chunks are dropped
    QFileSystemWatcher* m_watcher;
    QTimer* m_timer;
    QFutureWatcher<std::shared_ptr<Chunk>> m_read;  // a pointer: the GUI thread copies nothing
    bool m_pollAgain = false;
    bool m_delivered = true;  // the running read's chunk has been handed out
};

}  // namespace segstudio::ui::training
