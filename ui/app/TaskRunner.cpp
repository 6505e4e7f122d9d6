#include "TaskRunner.h"

#include "data/DataError.h"

#include <QEventLoop>
#include <QFutureWatcher>
#include <QProgressDialog>
#include <QTimer>
#include <QtConcurrent>
#include <atomic>

namespace segstudio::ui {

TaskRunner::Result TaskRunner::run(QWidget* parent, const QString& label, const Task& task)
{
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
    watcher.setFuture(QtConcurrent::run([&]() -> Result {
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

}  // namespace segstudio::ui
