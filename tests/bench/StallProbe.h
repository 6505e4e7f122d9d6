#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

// The benchmarks' measure of a responsive window: a 1 ms precise timer on the GUI thread records
// the gaps between its ticks while it runs; the longest gap is the longest the thread was away.
class StallProbe {
public:
    StallProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            m_gaps.push_back(m_tick.nsecsElapsed());
            m_tick.restart();
        });
    }
    void start()
    {
        m_gaps.clear();
        m_tick.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }

    // The gaps in nanoseconds, shortest first.
    std::vector<qint64> sortedGaps() const
    {
        std::vector<qint64> gaps = m_gaps;
        std::sort(gaps.begin(), gaps.end());
        return gaps;
    }
    void report(const char* what) const
    {
        const auto gaps = sortedGaps();
        const double max = gaps.empty() ? 0 : gaps.back() / 1e6;
        const double p99 = gaps.empty() ? 0 : gaps[gaps.size() * 99 / 100] / 1e6;
        const auto over16 = std::count_if(gaps.begin(), gaps.end(), [](qint64 g) { return g > 16'000'000; });
        std::printf("%s: GUI-thread gap max %.1f ms, p99 %.1f ms, %lld gaps > 16 ms of %zu\n", what, max, p99,
                    qlonglong(over16), gaps.size());
    }

private:
    QTimer m_timer;
    QElapsedTimer m_tick;
    std::vector<qint64> m_gaps;
};
