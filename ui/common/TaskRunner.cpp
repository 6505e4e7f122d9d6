#include "TaskRunner.h"
#include "document/WorkerPool.h"

#include "data/labels/DataError.h"

#include <QEventLoop>
#include <QFutureWatcher>
#include <QPointer>
#include <QProgressDialog>
#include <QScopeGuard>
#include <QTimer>
#include <QtConcurrent>
#include <atomic>

namespace segstudio::ui::common {

namespace {

bool g_busy = false;  // GUI thread only

// Holds the window's input off for the run and gives it back however the run ends. The progress
// dialog alone would not do: it appears only after its minimum duration, and until then the
// nested event loop delivers Ctrl+W, Remove, Open… to a window whose project the task reads.
class WindowInputGuard {
public:
    explicit WindowInputGuard(QWidget* parent) : m_window(parent ? parent->window() : nullptr)
    {
        if (m_window && m_window->isEnabled())
            m_window->setEnabled(false);
        else
            m_window = nullptr;  // already disabled by someone else: leave it to them
    }
    ~WindowInputGuard()
    {
        if (m_window)
            m_window->setEnabled(true);
    }
    WindowInputGuard(const WindowInputGuard&) = delete;
    WindowInputGuard& operator=(const WindowInputGuard&) = delete;

private:
    QPointer<QWidget> m_window;
};

}  // namespace

bool TaskRunner::isBusy()
{
    return g_busy;
}

TaskRunner::Result TaskRunner::run(QWidget* parent, const QString& label, const Task& task)
{
    if (g_busy)
        return {Outcome::Refused, QObject::tr("Another long task is still running")};
    g_busy = true;
    const auto clearBusy = qScopeGuard([] { g_busy = false; });
    const WindowInputGuard inputGuard(parent);

    std::atomic_bool cancel{false};
    std::atomic<std::size_t> done{0};
    std::atomic<std::size_t> total{0};
    const data::ImportProgress progress = [&](std::size_t d, std::size_t t) {
        done = d;
        total = t;
        return !cancel.load();
    };

    QProgressDialog dialog(label, QObject::tr("Cancel"), 0, 0, parent);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(300);
    dialog.setAutoClose(false);
    dialog.setAutoReset(false);
    // A window may be enabled while its (disabled) parent window is not: the dialog keeps Cancel.
    dialog.setEnabled(true);
    QObject::connect(&dialog, &QProgressDialog::canceled, [&] {
        cancel = true;
        dialog.setLabelText(QObject::tr("Cancelling…"));
    });

    QFutureWatcher<Result> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<Result>::finished, &loop, &QEventLoop::quit);
    // Progress is polled rather than signalled: the callback may fire thousands of times a second.
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (total > 0) {
            dialog.setMaximum(int(std::min<std::size_t>(total, INT_MAX)));
            dialog.setValue(int(std::min<std::size_t>(done, INT_MAX)));
        }
    });
    poll.start(50);
    watcher.setFuture(QtConcurrent::run(document::workerPool(), [&]() -> Result {
        try {
            task(progress);
            return {Outcome::Done, {}};
        } catch (const data::ImportCancelled&) {
            return {Outcome::Cancelled, {}};
        } catch (const std::exception& error) {
            return {Outcome::Failed, QString::fromStdString(error.what())};
        }
    }));
    if (!watcher.isFinished())
        loop.exec();
    poll.stop();
    return watcher.result();
}

}  // namespace segstudio::ui::common
