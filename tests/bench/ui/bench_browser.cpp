// Dataset-browser benchmark: a generated project of N images (10,000 by default) opened in the
// real MainWindow under whatever QPA platform is set (offscreen in CI).
// Measures: time from openProject() until every thumbnail cell on the first screen is painted
// with its image; the longest the GUI thread is blocked while the grid is scrolled top to bottom
// (a 1 ms precise timer records gaps between its ticks); time until all label counts are in;
// peak RSS (VmHWM). Thumbnails start cold: the disk cache goes to a fresh temp folder.
//
//   bench_browser [--images N] [--dir DIR] [--step-fraction F]
//   (DIR keeps the generated images between runs; F = viewport heights scrolled per frame)

#include "browser/DatasetBrowser.h"
#include "browser/ImageFilterProxyModel.h"
#include "browser/ImageListModel.h"
#include "shell/MainWindow.h"
#include "browser/ThumbnailCache.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/Project.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QListView>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include "../StallProbe.h"
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <opencv2/imgproc.hpp>
#include <random>
#include <time.h>

namespace {

using segstudio::ui::browser::ImageListModel;

long peakRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

// Distinct small images (the project refuses duplicate paths), half of them with label maps.
std::filesystem::path generateProject(const std::filesystem::path& dir, int count)
{
    const auto file = dir / "bench.segstudio";
    if (std::filesystem::exists(file))
        return file;
    auto schema = segstudio::data::ClassSchema::camVid();
    segstudio::data::Project project(file, schema);
    std::mt19937 random(7);
    std::filesystem::create_directories(dir / "images");
    std::filesystem::create_directories(project.labelRoot());
    for (int i = 0; i < count; ++i) {
        cv::Mat image(120, 160, CV_8UC3);
        image.setTo(cv::Scalar(random() % 256, random() % 256, random() % 256));
        cv::rectangle(image, {int(random() % 120), int(random() % 80), 40, 30}, cv::Scalar(random() % 256, 40, 200), -1);
        char name[64];
        std::snprintf(name, sizeof name, "images/img_%05d.png", i);
        segstudio::data::writeImageRgb(dir / name, image);
        const std::size_t index = project.addImage(dir / name, segstudio::data::Split(1 + i % 3));
        if (i % 2 == 0) {
            cv::Mat labels(120, 160, CV_8UC1, cv::Scalar(255));
            labels.rowRange(0, 60).setTo(int(random() % 11));
            labels.rowRange(60, 90).setTo(3);
            segstudio::data::writeLabelMap(project.labelMapPath(index), labels, schema);
            project.setStatus(index, segstudio::data::LabelStatus::Labelled);
        }
    }
    project.save();
    return file;
}

// Times every top-level event dispatch on the GUI thread, in wall time and in thread CPU time: on
// a loaded machine a wall-time gap may be another process running, CPU time is our own work.
class TimingApplication : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (!m_recording || m_depth > 0)
            return QApplication::notify(receiver, event);
        ++m_depth;
        timespec cpuStart{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuStart);
        m_wall.start();
        const bool result = QApplication::notify(receiver, event);
        const qint64 wall = m_wall.nsecsElapsed();
        timespec cpuEnd{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuEnd);
        --m_depth;
        const qint64 cpu = (cpuEnd.tv_sec - cpuStart.tv_sec) * 1'000'000'000LL + (cpuEnd.tv_nsec - cpuStart.tv_nsec);
        if (wall > m_maxWall) {
            m_maxWall = wall;
            m_maxWallType = event->type();
        }
        m_maxCpu = std::max(m_maxCpu, cpu);
        return result;
    }

    void setRecording(bool on) { m_recording = on; }
    double maxWallMs() const { return m_maxWall / 1e6; }
    double maxCpuMs() const { return m_maxCpu / 1e6; }
    int maxWallType() const { return int(m_maxWallType); }

private:
    bool m_recording = false;
    int m_depth = 0;
    QElapsedTimer m_wall;
    qint64 m_maxWall = 0;
    qint64 m_maxCpu = 0;
    QEvent::Type m_maxWallType = QEvent::None;
};

// Every cell whose rectangle meets the viewport has its thumbnail (or a known problem).
bool firstScreenReady(QListView* grid, ImageListModel* model, const QAbstractItemModel* proxy)
{
    const QRect viewport = grid->viewport()->rect();
    int seen = 0;
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const QModelIndex index = proxy->index(row, 0);
        const QRect rect = grid->visualRect(index);
        if (rect.top() > viewport.bottom())
            break;
        if (!rect.intersects(viewport))
            continue;
        ++seen;
        const int sourceRow = int(index.data(ImageListModel::EntryIndexRole).toULongLong());
        if (model->thumbnails()->thumbnail(sourceRow, model->overlayEnabled()).isNull()
            && model->thumbnails()->problem(sourceRow).isEmpty())
            return false;
    }
    return seen > 0;
}

}  // namespace

int main(int argc, char** argv)
{
    QTemporaryDir cacheHome;
    qputenv("XDG_CACHE_HOME", cacheHome.path().toUtf8());  // cold thumbnail cache
    QStandardPaths::setTestModeEnabled(true);               // leave the user's settings alone
    TimingApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_browser"));

    int count = 10000;
    QString dirArg;
    double stepFraction = 1.0;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QStringLiteral("--images"))
            count = args[i + 1].toInt();
        else if (args[i] == QStringLiteral("--dir"))
            dirArg = args[i + 1];
        else if (args[i] == QStringLiteral("--step-fraction"))
            stepFraction = args[i + 1].toDouble();
    }
    QTemporaryDir tempDir;
    const std::filesystem::path dir = (dirArg.isEmpty() ? tempDir.path() : dirArg).toStdString();
    QElapsedTimer clock;
    clock.start();
    const auto projectFile = generateProject(dir, count);
    std::printf("project: %d images in %s (ready in %.1f s)\n", count, dir.c_str(), clock.elapsed() / 1000.0);

    segstudio::ui::shell::MainWindow window;
    window.resize(1400, 860);
    window.show();
    QCoreApplication::processEvents();
    const long rssBefore = peakRssKb();

    // 1. First screen.
    ImageListModel* model = window.browser()->model();
    QListView* grid = window.browser()->gridView();
    const QAbstractItemModel* proxy = window.browser()->proxy();
    QElapsedTimer sinceOpen;
    qint64 statsDoneMs = -1;
    QObject::connect(model, &ImageListModel::statsFinished, [&] { statsDoneMs = sinceOpen.elapsed(); });
    clock.restart();
    sinceOpen.start();
    if (!window.openProject(QString::fromStdString(projectFile.string()))) {
        std::fprintf(stderr, "%s\n", qPrintable(window.lastError()));
        return 1;
    }
    const qint64 openReturned = clock.elapsed();
    while (!firstScreenReady(grid, model, proxy) && clock.elapsed() < 30000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
    const qint64 firstScreen = clock.elapsed();
    std::printf("openProject returned after %lld ms; first screen of thumbnails after %lld ms\n", openReturned, firstScreen);

    // 2. Scroll the whole grid while a 1 ms timer measures how long the event loop is away.
    StallProbe probe;
    QScrollBar* bar = grid->verticalScrollBar();
    const int step = std::max(1, int(grid->viewport()->height() * stepFraction));
    QTimer scroller;
    scroller.setInterval(16);  // one step per frame
    QEventLoop loop;
    QObject::connect(&scroller, &QTimer::timeout, [&] {
        if (bar->value() >= bar->maximum()) {
            loop.quit();
            return;
        }
        bar->setValue(bar->value() + step);
    });
    clock.restart();
    app.setRecording(true);
    probe.start();
    scroller.start();
    loop.exec();
    probe.stop();
    app.setRecording(false);
    const qint64 scrollMs = clock.elapsed();
    const std::vector<qint64> gaps = probe.sortedGaps();
    const double maxGap = gaps.empty() ? 0 : gaps.back() / 1e6;
    const double p99 = gaps.empty() ? 0 : gaps[gaps.size() * 99 / 100] / 1e6;
    const auto over16 = std::count_if(gaps.begin(), gaps.end(), [](qint64 g) { return g > 16'000'000; });
    const auto over8 = std::count_if(gaps.begin(), gaps.end(), [](qint64 g) { return g > 8'000'000; });
    std::printf("scrolled %d px in %lld ms (%d px/frame): event-loop gap max %.1f ms, p99 %.1f ms, %lld gaps > 8 ms, %lld > 16 ms, of %zu\n",
                bar->maximum(), scrollMs, step, maxGap, p99, qlonglong(over8), qlonglong(over16), gaps.size());
    std::printf("longest single event while scrolling: %.1f ms wall (event type %d), longest in thread CPU time: %.1f ms\n",
                app.maxWallMs(), app.maxWallType(), app.maxCpuMs());

    // 3. Label counts for every image.
    clock.restart();
    while (!model->statsComplete() && clock.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    std::printf("label counts for all images: %s, %lld ms after opening (%d pending)\n",
                model->statsComplete() ? "complete" : "INCOMPLETE", statsDoneMs, model->pendingStatsCount());

    std::printf("peak RSS: %.0f MB (%.0f MB before opening); thumbnail memory %.1f MB of %.0f MB budget\n",
                peakRssKb() / 1024.0, rssBefore / 1024.0, model->thumbnails()->memoryUsed() / 1048576.0,
                model->thumbnails()->memoryBudget() / 1048576.0);
    window.closeProject();
    return 0;
}
