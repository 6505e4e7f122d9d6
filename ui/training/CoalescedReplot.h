#pragma once

#include <QObject>

class QCustomPlot;
class QTimer;

namespace segstudio::ui::training {

// Repaints a QCustomPlot at most ~30 times per second however often its data changes, and not
// at all while it is hidden (another tab, a closed panel): then once when it is shown again.
// Requirements: GUI thread; the plot calls shown() from its showEvent().
class CoalescedReplot : public QObject {
    Q_OBJECT

public:
    explicit CoalescedReplot(QCustomPlot* plot);

    void schedule();
    void shown();

private:
    QCustomPlot* m_plot;
    QTimer* m_timer;
    bool m_stale = false;
};

}  // namespace segstudio::ui::training
