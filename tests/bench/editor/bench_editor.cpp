// Editor benchmarks on a 4000×3000 image (issue 4): brush dab, repaint after a dab, flood fill of
// a 6-megapixel region, undo memory per stroke, and image+labels open time. Prints one line per
// measurement; results go to docs/BENCHMARKS.md. Run: bench_editor [--rounds N] [--screenshot out.png]
#include "editor/ClassesPanel.h"
#include "editor/GrabCutTool.h"
#include "editor/LabelCanvas.h"
#include "editor/LabelDocument.h"
#include "editor/LabelEditor.h"
#include "editor/PredictionLayer.h"
#include "editor/PaintLabels.h"
#include "editor/SuperpixelTool.h"
#include "editor/ToolSettings.h"

#include "run/AtomicFile.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "paint/Brush.h"
#include "paint/RegionMask.h"
#include "paint/WriteGuard.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPainter>
#include <QTest>
#include <QTimer>
#include <QTemporaryDir>
#include <QUndoStack>

#include "../StallProbe.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace segstudio;

namespace {

constexpr int kWidth = 4000;
constexpr int kHeight = 3000;

cv::Mat makeImage()
{
    cv::Mat rgb(kHeight, kWidth, CV_8UC3);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            rgb.at<cv::Vec3b>(y, x) = cv::Vec3b(uchar(x / 16), uchar(y / 12), uchar((x + y) / 28));
    cv::rectangle(rgb, {600, 500}, {1800, 1400}, cv::Scalar(220, 40, 40), cv::FILLED);
    cv::circle(rgb, {3000, 2000}, 600, cv::Scalar(30, 200, 60), cv::FILLED);
    return rgb;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double msSince(const QElapsedTimer& timer) { return timer.nsecsElapsed() / 1e6; }

}  // namespace

// Renders the editor with a few labelled regions beside its classes panel (for docs/editor.png).
void writeScreenshot(const std::filesystem::path& root, const char* path)
{
    cv::Mat rgb(480, 640, CV_8UC3, cv::Scalar(90, 140, 200));
    cv::rectangle(rgb, {0, 300}, {639, 479}, cv::Scalar(90, 90, 90), cv::FILLED);
    cv::rectangle(rgb, {180, 250}, {380, 340}, cv::Scalar(200, 30, 30), cv::FILLED);
    cv::circle(rgb, {520, 200}, 90, cv::Scalar(40, 150, 50), cv::FILLED);
    data::ClassSchema schema({{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"},
                              {2, "tree", {128, 128, 0}, "3"}, {3, "sky", {128, 128, 128}, "4"}});
    data::Project project(root / "shot.segstudio", schema);
    data::writeImageRgb(root / "street.png", rgb);
    project.addImage(root / "street.png");
    project.save();
    document::ProjectDocument projectDoc(project);
    ui::editor::LabelEditor editor;
    editor.resize(1080, 560);
    editor.show();
    editor.setDocument(&projectDoc);
    editor.openImage(0);
    ui::editor::LabelDocument* doc = editor.document();
    const paint::WriteGuard guard;
    doc->paintRegion(paint::RegionMask::polygon(doc->size(), {{0, 301}, {639, 301}, {639, 479}, {0, 479}}), 0, guard,
                     QStringLiteral("road"));
    doc->paintRegion(paint::RegionMask::magicWand(doc->image(), {300, 300}, 10), 1, guard, QStringLiteral("car"));
    doc->paintRegion(paint::RegionMask::magicWand(doc->image(), {520, 200}, 10), 2, guard, QStringLiteral("tree"));
    editor.toolSettings()->setCurrentClass(3);
    QEventLoop wait;  // let the debounced pixel counts arrive
    QTimer::singleShot(400, &wait, &QEventLoop::quit);
    wait.exec();
    QWidget* panel = editor.classesPanel();
    panel->setParent(nullptr);
    panel->resize(330, 560);
    panel->show();
    QApplication::processEvents();
    QImage shot(editor.width() + panel->width(), 560, QImage::Format_RGB32);
    shot.fill(Qt::white);
    QPainter painter(&shot);
    painter.drawPixmap(0, 0, editor.grab());
    painter.drawPixmap(editor.width(), 0, panel->grab());
    painter.end();
    shot.save(QString::fromLocal8Bit(path));
    editor.setDocument(nullptr);
    panel->setParent(&editor);
}

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int rounds = 5;
    const char* screenshot = nullptr;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::string(argv[i]) == "--rounds")
            rounds = std::max(1, std::atoi(argv[i + 1]));
        else if (std::string(argv[i]) == "--screenshot")
            screenshot = argv[i + 1];
    }
    const cv::Mat rgb = makeImage();
    cv::Mat labels(kHeight, kWidth, CV_8UC1, cv::Scalar(255));
    labels(cv::Rect(0, 0, 2000, 3000)).setTo(1);  // exactly 6 megapixels of class 1

    // Open: a real project on disk, timed through LabelEditor::openImage.
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    data::ClassSchema schema({{0, "a", {200, 0, 0}, "1"}, {1, "b", {0, 200, 0}, "2"}, {2, "c", {0, 0, 200}, "3"}});
    data::Project project(root / "bench.segstudio", schema);
    data::writeImageRgb(root / "big.png", rgb);
    project.addImage(root / "big.png");
    std::filesystem::create_directories(project.labelRoot());
    data::writeLabelMap(project.labelMapPath(0), labels, schema);
    // The next image, for opening one while the superpixels of this one compute: a copy.
    std::filesystem::copy_file(root / "big.png", root / "next.png");
    project.addImage(root / "next.png");
    data::writeLabelMap(project.labelMapPath(1), labels, schema);
    project.save();
    if (screenshot) {
        writeScreenshot(root, screenshot);
        return 0;
    }
    document::ProjectDocument projectDoc(project);
    ui::editor::LabelEditor editor;
    editor.resize(1600, 1000);
    editor.show();
    editor.setDocument(&projectDoc);
    std::vector<double> openMs;
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!editor.openImage(0))
            return 1;
        openMs.push_back(msSince(timer));
        editor.setDocument(nullptr);
        editor.setDocument(&projectDoc);
    }
    std::printf("open image+labels (4000x3000 PNG pair, via LabelEditor::openImage): median %.1f ms\n", median(openMs));

    // What the open cannot beat: decoding the two PNGs alone, one after the other, on this thread.
    std::vector<double> decodeImageMs, decodeLabelsMs, firstPaintMs;
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        const std::string bytes = run::readFile(project.imagePath(0));
        const cv::Mat bgr = cv::imdecode(cv::Mat(1, int(bytes.size()), CV_8UC1, const_cast<char*>(bytes.data())),
                                         cv::IMREAD_COLOR);
        decodeImageMs.push_back(msSince(timer));
        timer.restart();
        const cv::Mat map = data::readLabelMap(project.labelMapPath(0), schema);
        decodeLabelsMs.push_back(msSince(timer));
    }
    std::printf("floor: cv::imdecode of the image PNG alone %.1f ms; readLabelMap alone %.1f ms (median)\n",
                median(decodeImageMs), median(decodeLabelsMs));

    // The open returns before the overlay is composed: the first paint (fit to window) pays for it.
    for (int i = 0; i < rounds; ++i) {
        editor.setDocument(nullptr);
        editor.setDocument(&projectDoc);
        QElapsedTimer timer;
        timer.start();
        editor.openImage(0);
        editor.canvas()->repaint();
        firstPaintMs.push_back(msSince(timer));
    }
    std::printf("open + first full repaint (fit to window): median %.1f ms\n", median(firstPaintMs));

    ui::editor::LabelDocument* doc = editor.document();
    ui::editor::LabelCanvas* canvas = editor.canvas();
    canvas->actualSize();
    QApplication::processEvents();

    // Dabs: what BrushTool does per mouse move (touch tiles, stroke a 6-px segment, notify),
    // with the canvas recomposing the dirty rectangle; the repaint is timed separately.
    const paint::WriteGuard guard;
    std::mt19937 rng(7);
    for (int size : {20, 100}) {
        const paint::Brush brush(size, paint::BrushShape::Round);
        std::vector<double> dabMs, repaintMs;
        doc->beginEdit();
        cv::Point last(kWidth / 2, kHeight / 2);
        for (int i = 0; i < 500; ++i) {
            const cv::Point next = last + cv::Point(int(rng() % 13) - 6, int(rng() % 13) - 6);
            QElapsedTimer timer;
            timer.start();
            cv::Mat& map = doc->touch(brush.strokeRect(last, next));
            const cv::Rect changed = brush.stroke(map, last, next, 2, guard) | brush.dabRect(next);
            dabMs.push_back(msSince(timer));
            timer.restart();
            doc->notifyChanged(changed & cv::Rect(0, 0, kWidth, kHeight));  // recomposes the overlay rect
            canvas->repaint(canvas->widgetRectOf(QRect(changed.x, changed.y, changed.width, changed.height)));
            repaintMs.push_back(msSince(timer));
            last = next;
        }
        doc->endEdit(QStringLiteral("bench"));
        std::printf("brush dab size %d: median %.3f ms; recompose+repaint dirty rect at 1:1: median %.3f ms\n", size,
                    median(dabMs), median(repaintMs));
    }

    // Full-view repaint for comparison (fit to window, whole widget).
    canvas->fitToWindow();
    std::vector<double> fullMs;
    for (int i = 0; i < 10; ++i) {
        QElapsedTimer timer;
        timer.start();
        canvas->repaint();
        fullMs.push_back(msSince(timer));
    }
    std::printf("full repaint, fit to window (%dx%d widget): median %.1f ms\n", canvas->width(), canvas->height(),
                median(fullMs));

    // Issue 12: the prediction layers. A prediction of the image's size (stripes of classes,
    // varying confidence); switching the view recomposes lazily what the view shows, so each
    // switch costs one full repaint; changing the opacity only repaints.
    {
        const cv::Size size = editor.document()->size();
        cv::Mat classes(size, CV_8UC1), confidence(size, CV_8UC1), entropy(size, CV_8UC1);
        for (int y = 0; y < size.height; ++y) {
            classes.row(y).setTo(cv::Scalar((y / 97) % 3));
            confidence.row(y).setTo(cv::Scalar(128 + (y % 128)));
            entropy.row(y).setTo(cv::Scalar(255 - (y % 256)));
        }
        editor.setPrediction(*editor.currentIndex(), classes, confidence, entropy);
        using View = ui::editor::PredictionLayer::View;
        for (const auto& [view, name] : {std::pair{View::Classes, "classes"}, std::pair{View::Errors, "errors"},
                                         std::pair{View::Confidence, "confidence"}, std::pair{View::Uncertainty, "uncertainty"}}) {
            QElapsedTimer timer;
            timer.start();
            canvas->setPredictionView(view);
            canvas->repaint();
            const double switchMs = msSince(timer);
            std::vector<double> opacityMs;
            for (int i = 0; i < 10; ++i) {
                timer.restart();
                canvas->setPredictionOpacity(0.3 + 0.05 * i);
                canvas->repaint();
                opacityMs.push_back(msSince(timer));
            }
            std::printf("prediction layer '%s': switch + first repaint %.1f ms; opacity change + repaint median %.1f ms\n", name,
                        switchMs, median(opacityMs));
        }
        canvas->setPredictionView(View::Off);
    }

    // Issue 13: GrabCut off the GUI thread. A rectangle around a 1000x1200 object of the 12 MP image,
    // dragged with the real tool; a 1 ms timer records the longest gap of the GUI thread until the
    // region is there.
    for (QAction* action : editor.toolActions())
        if (action->objectName() == QLatin1String("tool.grabcut"))
            action->trigger();
    if (auto* grabCut = qobject_cast<ui::editor::GrabCutTool*>(canvas->tool())) {
        const auto at = [canvas](double x, double y) { return canvas->mapFromImage(QPointF(x, y)).toPoint(); };
        QElapsedTimer total;
        StallProbe probe;
        total.start();
        probe.start();
        QTest::mousePress(canvas, Qt::LeftButton, {}, at(900, 700));
        QTest::mouseMove(canvas, at(2100, 2000));
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, at(2100, 2000));
        while (grabCut->isSegmenting())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        const double seconds = total.nsecsElapsed() / 1e9;
        probe.stop();
        std::printf("GrabCut of a 1200x1300 rectangle on the 4000x3000 image, in the background: %.0f ms; region %s\n",
                    seconds * 1000.0, grabCut->hasPreview() ? "found" : "empty");
        probe.report("  during it");
        grabCut->discard();
    }

    // The same with the superpixel tool active, which draws the superpixel boundaries on top.
    for (QAction* action : editor.toolActions()) {
        if (action->objectName() == QLatin1String("tool.superpixel"))
            action->trigger();
    }
    auto* superpixels = qobject_cast<ui::editor::SuperpixelTool*>(canvas->tool());
    QElapsedTimer superpixelTimer;
    superpixelTimer.start();
    superpixels->waitUntilReady();
    const double superpixelMs = msSince(superpixelTimer);
    std::vector<double> boundaryMs;
    for (int i = 0; i < 10; ++i) {
        QElapsedTimer timer;
        timer.start();
        canvas->repaint();
        boundaryMs.push_back(msSince(timer));
    }
    std::printf("superpixels + boundary image in the background: %.0f ms; full repaint with boundaries: median %.1f ms\n",
                superpixelMs, median(boundaryMs));

    // Issue 13: opening the next image while superpixels compute (the tool is active, so the open
    // starts a new computation); the open no longer waits for the running one, and decodes on workers.
    {
        superpixels->waitUntilReady();
        editor.toolSettings()->setSuperpixelSize(25);  // a new computation for the same image,
        editor.toolActions().first()->trigger();          // started when the tool is chosen again
        for (QAction* action : editor.toolActions())
            if (action->objectName() == QLatin1String("tool.superpixel"))
                action->trigger();
        // Saving the edited image on the switch is measured on its own: it stays on the GUI thread,
        // so the labels are on disk before their image closes.
        QElapsedTimer saveTimer;
        saveTimer.start();
        editor.save();
        const double saveMs = msSince(saveTimer);
        StallProbe probe;
        probe.start();
        QElapsedTimer timer;
        timer.start();
        editor.requestImage(1);  // the next image, while the computation runs, as the browser opens it
        const double requestMs = msSince(timer);
        while (editor.isOpening())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        const double openMs = msSince(timer);
        doc = editor.document();  // the same pixels, a new document
        while (!superpixels->ready())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        probe.stop();
        std::printf("save of the edited 12 MP label map (as on an image switch): %.1f ms\n", saveMs);
        std::printf("open the next image while superpixels compute: requestImage returns in %.1f ms, the image is in after %.1f ms\n",
                    requestMs, openMs);
        probe.report("  until the new superpixels are ready");
    }
    editor.toolActions().first()->trigger();

    // Flood fill of the 6-megapixel class-1 half, as FillTool does (region + paint + undo patch).
    std::vector<double> floodMs, floodOnlyMs;
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        const paint::RegionMask region = paint::RegionMask::floodLabel(doc->labels(), {100, 100});
        floodOnlyMs.push_back(msSince(timer));
        doc->paintRegion(region, static_cast<std::uint8_t>(i % 2 == 0 ? 0 : 1), guard, QStringLiteral("fill"));
        floodMs.push_back(msSince(timer));
    }
    std::printf("flood fill 6 MP region: region %.1f ms, region+paint+undo patch %.1f ms (median)\n",
                median(floodOnlyMs), median(floodMs));

    // Undo memory: 200 strokes of 1000 px (size 20), each one command.
    QUndoStack* stack = doc->undoStack();
    stack->clear();
    const paint::Brush brush(20, paint::BrushShape::Round);
    std::size_t total = 0;
    for (int i = 0; i < 200; ++i) {
        const cv::Point a(int(rng() % 3000) + 200, int(rng() % 2000) + 200);
        const cv::Point b = a + cv::Point(700, 700);
        doc->beginEdit();
        brush.stroke(doc->touch(brush.strokeRect(a, b)), a, b, static_cast<std::uint8_t>(i % 3), guard);
        doc->endEdit(QStringLiteral("stroke"));
    }
    for (int i = 0; i < stack->count(); ++i)
        total += static_cast<const ui::editor::PaintLabels*>(stack->command(i))->patch().memoryBytes();
    std::printf("undo memory: %d strokes of ~990 px, size 20: %.1f KB per stroke, %.2f MB total\n", stack->count(),
                total / 1024.0 / std::max(1, stack->count()), total / 1048576.0);
    editor.setDocument(nullptr);
    return 0;
}
