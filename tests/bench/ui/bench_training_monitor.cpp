// Training-monitor benchmark (issue 11): a run with N logged training points (1,000,000 by
// default, a validation point every 1,000) opened in the real TrainingDock under whatever QPA
// platform is set (offscreen in CI, xcb under Xvfb).
// Measures, with a 1 ms precise timer recording the gaps between its ticks (how long the GUI
// thread is away):
//   1. catching up: from selecting the run until every record is plotted;
//   2. live: another thread appends 1,000 records every 100 ms for 5 s while the panel follows;
//   3. panning and zooming: 100 frames each, the time of each replot (what a drag or a wheel step
//      costs the GUI thread);
// and the peak RSS (VmHWM) before and after.
//
//   bench_training_monitor [--points N] [--dir DIR]

#include "training/MetricsPlot.h"
#include "training/RunWatcher.h"
#include "training/RunsTable.h"
#include "training/TrainingDock.h"
#include "run/MetricsWriter.h"
#include "run/RunLayout.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include "../StallProbe.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>

namespace {

using segstudio::run::MetricsRecord;

long statusKb(const char* key)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(int(qstrlen(key))).trimmed().split(' ').first().toLong();
    return -1;
}

MetricsRecord trainRecord(std::int64_t iteration)
{
    auto record = MetricsRecord::train(int(iteration / 1000) + 1, iteration);
    record.loss = 2.0 * std::exp(-double(iteration) / 200000.0) + 0.1 * std::sin(double(iteration));
    record.accuracy = 1.0 - 0.8 * std::exp(-double(iteration) / 150000.0);
    record.learningRate = 1e-3;
    record.imagesPerSecond = 100.0;
    record.elapsedSeconds = double(iteration) * 0.1;
    return record;
}

void writeRun(const std::filesystem::path& runDir, std::int64_t points)
{
    std::filesystem::create_directories(runDir);
    segstudio::run::MetricsWriter writer(segstudio::run::RunLayout(runDir).metricsFile());
    MetricsRecord run;
    run.kind = MetricsRecord::Kind::Run;
    run.run.model = "deeplabv3plus";
    run.run.device = "cuda:0";
    run.run.epochs = int(points / 1000);
    run.run.iterationsPerEpoch = 1000;
    run.run.totalIterations = points * 2;
    writer.write(run);
    for (std::int64_t i = 1; i <= points; ++i) {
        writer.write(trainRecord(i));
        if (i % 1000 == 0) {
            auto val = MetricsRecord::val(int(i / 1000), i);
            val.loss = 1.0;
            val.meanIoU = 0.5;
            val.accuracy = 0.8;
            val.classIoU = std::vector<double>(11, 0.5);
            val.elapsedSeconds = double(i) * 0.1;
            writer.write(val);
        }
    }
}

void runUntil(const std::function<bool()>& done)
{
    QEventLoop loop;
    QTimer check;
    check.setInterval(10);
    QObject::connect(&check, &QTimer::timeout, [&] {
        if (done())
            loop.quit();
    });
    check.start();
    loop.exec();
}

void reportFrames(const char* what, std::vector<double> frames)
{
    std::sort(frames.begin(), frames.end());
    std::printf("%s: %zu replots, median %.1f ms, max %.1f ms\n", what, frames.size(), frames[frames.size() / 2],
                frames.back());
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    std::int64_t points = 1'000'000;
    QString dirArgument;
    for (int i = 1; i + 1 < argc; ++i) {
        if (qstrcmp(argv[i], "--points") == 0)
            points = std::atoll(argv[i + 1]);
        if (qstrcmp(argv[i], "--dir") == 0)
            dirArgument = QString::fromLocal8Bit(argv[i + 1]);
    }
    QTemporaryDir temp;
    const QString dir = dirArgument.isEmpty() ? temp.path() : dirArgument;
    const std::filesystem::path runDir = std::filesystem::path(dir.toStdString()) / "runs" / "bench";
    QElapsedTimer clock;
    clock.start();
    std::filesystem::remove_all(runDir);
    writeRun(runDir, points);
    std::printf("wrote %lld training points (%.0f MB) in %lld ms\n", qlonglong(points),
                double(std::filesystem::file_size(segstudio::run::RunLayout(runDir).metricsFile())) / 1e6, clock.elapsed());

    segstudio::ui::training::TrainingDock dock;
    dock.resize(1400, 800);
    // Its parts, by the names it gives them (the panel hands none out).
    auto* runsTable = dock.findChild<segstudio::ui::training::RunsTable*>(QStringLiteral("runsTable"));
    auto* watcher = dock.findChild<segstudio::ui::training::RunWatcher*>(QStringLiteral("runWatcher"));
    if (!runsTable || !watcher || !dock.findChild<segstudio::ui::training::MetricsPlot*>(QStringLiteral("metricsPlot")))
        qFatal("the training panel lacks a part the benchmark reads");
    dock.show();
    dock.setProjectFile(QDir(dir).filePath(QStringLiteral("bench.segstudio")));
    // WAIT_SUMMARIES=1: let the runs table's summary (a second reader of the same file) finish
    // first, to tell the panel's own cost from two workers sharing two cores with the GUI.
    if (qEnvironmentVariableIsSet("WAIT_SUMMARIES"))
        runsTable->waitForSummaries();
    const long rssBefore = statusKb("VmRSS:");
    segstudio::ui::training::MetricsPlot* plot =
        dock.findChild<segstudio::ui::training::MetricsPlot*>(QStringLiteral("metricsPlot"));
    StallProbe probe;

    // 1. Catch up with the whole file.
    probe.start();
    clock.restart();
    dock.selectRun(QStringLiteral("bench"));
    runUntil([&] { return !watcher->isReading() && dock.progress().iteration() >= points; });
    probe.stop();
    std::printf("caught up with %lld points in %lld ms; plotted %d raw / %d smoothed train-loss points\n",
                qlonglong(points), clock.elapsed(),
                plot->series(segstudio::ui::training::MetricsPlot::TrainLoss)->dataCount(),
                plot->series(segstudio::ui::training::MetricsPlot::TrainLossSmoothed)->dataCount());
    probe.report("catching up");

    // 2. Live: another process's appends, as the trainer's would come.
    watcher->setPollInterval(100);
    std::atomic<bool> writing{true};
    std::thread writer([&] {
        segstudio::run::MetricsWriter out(segstudio::run::RunLayout(runDir).metricsFile());
        for (std::int64_t burst = 0; burst < 50; ++burst) {
            for (int i = 1; i <= 1000; ++i)
                out.write(trainRecord(points + burst * 1000 + i));
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        writing = false;
    });
    probe.start();
    runUntil([&] { return !writing && !watcher->isReading() && dock.progress().iteration() >= points + 50000; });
    probe.stop();
    writer.join();
    probe.report("live appends (50 x 1,000 records, 100 ms apart)");

    // 3. Pan and zoom, one replot per frame.
    QCPAxis* x = plot->lossRect()->axis(QCPAxis::atBottom);
    std::vector<double> pans, zooms;
    for (int frame = 0; frame < 100; ++frame) {
        QElapsedTimer one;
        one.start();
        x->moveRange(x->range().size() * 0.01);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        pans.push_back(one.nsecsElapsed() / 1e6);
    }
    plot->resetView();
    for (int frame = 0; frame < 100; ++frame) {
        QElapsedTimer one;
        one.start();
        x->scaleRange(frame < 50 ? 0.9 : 1.0 / 0.9, x->range().center());
        plot->replot(QCustomPlot::rpImmediateRefresh);
        zooms.push_back(one.nsecsElapsed() / 1e6);
    }
    reportFrames("panning the whole run", pans);
    reportFrames("zooming in and out", zooms);
    std::printf("RSS: %ld MB before the run was opened, %ld MB after; peak %ld MB\n", rssBefore / 1024,
                statusKb("VmRSS:") / 1024, statusKb("VmHWM:") / 1024);
    return 0;
}
