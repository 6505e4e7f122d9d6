#include "BackgroundPool.h"

#include <QThread>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace segstudio::ui::common {

namespace {
constexpr int kNiceness = 10;  // a tenth of a normal thread's share of a busy core
}

Q_GLOBAL_STATIC(QThreadPool, g_backgroundPool)

QThreadPool* backgroundPool() { return g_backgroundPool(); }

void lowerCurrentThreadPriority()
{
#ifdef Q_OS_LINUX
    // Linux gives every thread its own nice value; QThread::LowPriority does nothing under the
    // default scheduler, and IdlePriority (SCHED_IDLE) would starve while a trainer keeps the
    // cores busy. The pool's threads are its own, so nobody else inherits the lower priority.
    const auto thread = static_cast<id_t>(::syscall(SYS_gettid));
    if (::getpriority(PRIO_PROCESS, thread) < kNiceness)
        ::setpriority(PRIO_PROCESS, thread, kNiceness);
#else
    QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}

}  // namespace segstudio::ui::common
