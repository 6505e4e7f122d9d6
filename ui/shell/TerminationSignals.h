#pragma once

#include <QObject>

class QSocketNotifier;

namespace segstudio::ui::shell {

// SIGTERM, SIGHUP and SIGINT (a logout, a shutdown, `kill`, Ctrl+C in the terminal) as a Qt
// signal on the GUI thread, so the window can end as a close does instead of dying with the
// project locked and its unsaved labels nowhere: the handler only writes the signal's number to
// a socket pair (async-signal-safe); a QSocketNotifier reads it in the event loop.
// Requirements: one instance per process, made on the GUI thread after QApplication.
class TerminationSignals : public QObject {
    Q_OBJECT

public:
    explicit TerminationSignals(QObject* parent = nullptr);
    ~TerminationSignals() override;

signals:
    void received(int signal);

private:
    void readSignal();

    QSocketNotifier* m_notifier = nullptr;
};

}  // namespace segstudio::ui::shell
