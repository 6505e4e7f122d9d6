// Project-edit benchmark (issue 13): CamVid (SegNet layout, 468 train+val images with their
// annotations) imported into a fresh project and opened in the real MainWindow, the first image in
// the editor and every label count in. Then, through the ProjectDocument as the Classes panel does:
// merge two classes across the dataset (Pole into Building, in a background job with the window
// live), undo it, redo it. For each: wall time until the job has ended and the browser's counts
// are back, and the longest GUI-thread stall meanwhile (a 1 ms timer, as bench_browser uses).
// Exits 0 with a note when CamVid is absent.
//
//   bench_project_edits [--camvid DIR]

#include "browser/ImageListModel.h"
#include "browser/DatasetBrowser.h"
#include "shell/MainWindow.h"
#include "data/formats/DatasetImporter.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "editor/ClassesPanel.h"
#include "editor/LabelEditor.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>

#include "../StallProbe.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

namespace {

using segstudio::document::ProjectDocument;
using segstudio::ui::shell::MainWindow;

void spinUntil(const std::function<bool()>& done)
{
    while (!done())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

// Runs an edit with the probe on; returns its wall time in ms until the job ended and the counts are in.
double measured(const char* what, MainWindow& window, const std::function<void()>& edit)
{
    ProjectDocument* doc = window.document();
    segstudio::ui::browser::ImageListModel* model = window.browser()->model();
    StallProbe probe;
    probe.start();
    QElapsedTimer timer;
    timer.start();
    edit();
    spinUntil([&] { return !doc->isBusy(); });
    const double jobMs = timer.nsecsElapsed() / 1e6;
    spinUntil([&] { return model->statsComplete(); });
    const double allMs = timer.nsecsElapsed() / 1e6;
    probe.stop();
    std::printf("%s: job %.0f ms, counts back after %.0f ms\n", what, jobMs, allMs);
    probe.report("  meanwhile");
    return allMs;
}

}  // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    std::filesystem::path camvid = SEGSTUDIO_CAMVID_DIR;
    for (int i = 1; i + 1 < argc; i += 2)
        if (std::string(argv[i]) == "--camvid")
            camvid = argv[i + 1];
    if (!std::filesystem::exists(camvid / "train.txt")) {
        std::printf("CamVid not found at %s: nothing measured\n", camvid.string().c_str());
        return 0;
    }
    QTemporaryDir dir;
    const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "camvid.segstudio";
    QElapsedTimer timer;
    timer.start();
    segstudio::data::DatasetImporter::importSegNetLayout(camvid, file).save();
    std::printf("import of %s: %.1f s\n", camvid.string().c_str(), timer.nsecsElapsed() / 1e9);

    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!window.openProject(QString::fromStdString(file.string()))) {
        std::fprintf(stderr, "open failed: %s\n", qPrintable(window.lastError()));
        return 1;
    }
    ProjectDocument* doc = window.document();
    spinUntil([&] { return window.editor()->currentIndex().has_value() && window.browser()->model()->statsComplete(); });
    std::printf("%zu images, %zu classes; image %zu open in the editor\n", doc->size(), doc->schema().size(),
                *window.editor()->currentIndex());

    const int pole = *doc->schema().idOfName("Pole");
    const int building = *doc->schema().idOfName("Building");
    measured("merge Pole into Building", window, [&] { window.editor()->classesPanel()->mergeClasses(pole, building); });
    measured("undo the merge", window, [&] { doc->undoStack()->undo(); });
    measured("redo the merge", window, [&] { doc->undoStack()->redo(); });
    window.close();
    return 0;
}
