#pragma once

#include <QThreadPool>
#include <QtConcurrent>

#include <utility>

namespace segstudio::ui::common {

// The pool for work nobody waits on while it runs: run summaries, run comparisons, the metrics
// reader. Its threads run niced, so on a 2-core machine they never take a core from the GUI
// thread (which must answer within 16 ms) yet still progress while a trainer uses every core.
QThreadPool* backgroundPool();

// Lowers the calling thread's scheduling priority (Linux: nice +10 for this thread only).
void lowerCurrentThreadPriority();

template <typename Function>
auto runInBackground(Function&& function)
{
    return QtConcurrent::run(backgroundPool(), [function = std::forward<Function>(function)]() mutable {
        lowerCurrentThreadPriority();
        return function();
    });
}

}  // namespace segstudio::ui::common
