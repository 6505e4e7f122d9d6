#include "WorkerPool.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace segstudio::document {

QThreadPool* workerPool()
{
    static QThreadPool* pool = [] {
        auto* created = new QThreadPool;  // lives as long as the process, like the global pool
        created->setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
        return created;
    }();
    return pool;
}

}  // namespace segstudio::document
