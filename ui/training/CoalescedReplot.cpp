#include "CoalescedReplot.h"

#include <qcustomplot.h>

#include <QTimer>

namespace segstudio::ui::training {

namespace {
constexpr int kReplotIntervalMs = 33;
}

CoalescedReplot::CoalescedReplot(QCustomPlot* plot) : QObject(plot), m_plot(plot), m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(kReplotIntervalMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_plot->isVisible())
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        else
            m_stale = true;
    });
}

void CoalescedReplot::schedule()
{
    if (!m_timer->isActive())
        m_timer->start();
}

void CoalescedReplot::shown()
{
    if (m_stale) {
        m_stale = false;
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

}  // namespace segstudio::ui::training
