#include "EditorTestProject.h"

#include "editor/LabelCanvas.h"
#include "editor/LabelDocument.h"
#include "editor/LabelEditor.h"
#include "paint/ColourScale.h"
#include "editor/LabelingTips.h"
#include "editor/PredictionBar.h"
#include "editor/ToolSettingsStore.h"
#include "editor/ToolSettings.h"

#include "data/labels/LabelMapIO.h"
#include "document/WorkerPool.h"
#include "data/project/ProjectLock.h"
#include "data/labels/RecoveryStore.h"
#include "paint/PredictionAcceptance.h"
#include "paint/SuperpixelMap.h"
#include "paint/WriteGuard.h"
#include "paint/RegionMask.h"
#include "data/labels/ImageIO.h"

#include "editor/ClassesPanel.h"
#include "editor/GrabCutTool.h"
#include "editor/SmartClickTool.h"
#include "editor/ThinStrokeTool.h"
#include "editor/SuperpixelTool.h"

#include <QAction>
#include <QIcon>
#include <QImage>
#include <QKeySequence>
#include <QComboBox>
#include <QSlider>
#include <QSpinBox>
#include <QLabel>
#include <QToolBar>
#include <QFileInfo>
#include <QDir>
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QThreadPool>
#include <QTimer>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableWidget>
#include <QSignalSpy>
#include <QUndoGroup>
#include <QUndoStack>
#include <QSettings>
#include <QStandardPaths>
#include "icons/Icons.h"

#include <QtTest>

#include <fstream>

using namespace segstudio;

// The editor driven like a user: QTest mouse and key events on the offscreen canvas, then the
// label bytes compared with OpenCV references; plus undo, saving, recovery and class operations.
class TestLabelEditor : public QObject {
    Q_OBJECT

private:
    // The canvas is 256×256 showing a 64×64 image: 4 screen pixels per image pixel, no offset.
    static QPoint screenOf(cv::Point p) { return QPoint(p.x * 4 + 2, p.y * 4 + 2); }

    // The model's class scores for Smart Click: road everywhere, unsure (0.55 road, 0.35 car) over
    // the image's red rectangle (10,10)-(30,40).
    static cv::Mat smartClickScores()
    {
        const auto nll = [](double p) { return std::uint8_t(std::lround(-std::log(p) * 16.0)); };
        cv::Mat scores(64, 64, CV_8UC3, cv::Scalar(nll(0.9), nll(0.05), nll(0.05)));
        scores(cv::Rect(cv::Point(10, 10), cv::Point(31, 41))).setTo(cv::Scalar(nll(0.55), nll(0.35), nll(0.1)));
        return scores;
    }

    // restore: the answer to "unsaved labels found" (the prompt records what it was shown).
    static std::unique_ptr<ui::editor::LabelEditor> makeEditor(EditorTestProject& test, bool restore = true,
                                                               QStringList* prompted = nullptr)
    {
        auto editor = std::make_unique<ui::editor::LabelEditor>();
        editor->setRecoveryPrompt([restore, prompted](const QStringList& found) {
            if (prompted)
                *prompted = found;
            return restore;
        });
        editor->setDocument(test.document.get());
        editor->canvas()->setFixedSize(256, 256);
        editor->show();
        editor->canvas()->fitToWindow();
        return editor;
    }

    static void selectTool(ui::editor::LabelEditor& editor, const char* id)
    {
        for (QAction* action : editor.toolActions()) {
            if (action->objectName() == QLatin1String("tool.") + QLatin1String(id))
                action->trigger();
        }
    }

    // A drag with a modifier held on the press (which is when the tools read it).
    struct ModifiedDrag {
        QWidget* canvas;
        void run(Qt::KeyboardModifiers modifiers, const std::vector<cv::Point>& path) const
        {
            QTest::mousePress(canvas, Qt::LeftButton, modifiers, screenOf(path.front()));
            for (std::size_t i = 1; i < path.size(); ++i)
                QTest::mouseMove(canvas, screenOf(path[i]));
            QTest::mouseRelease(canvas, Qt::LeftButton, modifiers, screenOf(path.back()));
        }
    };

    static void drag(QWidget* canvas, const std::vector<cv::Point>& path)
    {
        QTest::mousePress(canvas, Qt::LeftButton, {}, screenOf(path.front()));
        for (std::size_t i = 1; i < path.size(); ++i)
            QTest::mouseMove(canvas, screenOf(path[i]));
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, screenOf(path.back()));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);  // QSettings of this test only
        QCoreApplication::setOrganizationName(QStringLiteral("SegStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_LabelEditor"));
        // The first-start card would lie over the canvas these tests grab and click: seen.
        QSettings().setValue(QLatin1String(ui::editor::LabelingTips::kSeenKey), true);
    }

    // Every test starts from the prediction row's and the tools' defaults (both are kept in QSettings).
    void init()
    {
        ui::editor::PredictionBar::forgetChoices();
        ui::editor::ToolSettingsStore::forget();
    }

    // First start: "how labeling works" over the canvas on the first image ever opened, listing
    // the real tool shortcuts; "Got it" is remembered across editors; Help shows it again.
    void labelingTipsOnFirstOpenOnly()
    {
        QSettings().remove(QLatin1String(ui::editor::LabelingTips::kSeenKey));
        EditorTestProject test;
        auto editor = makeEditor(test);
        auto* tips = editor->labelingTips();
        QVERIFY(!tips->isVisible());
        QVERIFY(editor->openImage(0));
        QVERIFY(tips->isVisible());
        for (QAction* tool : editor->toolActions())
            QVERIFY2(tips->text().contains(tool->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped()),
                     qPrintable(tool->text()));
        QVERIFY(tips->geometry().right() <= editor->canvas()->width());
        // The text is taller than this 256 px canvas: the card fits and scrolls, "Got it" shows.
        QVERIFY2(tips->geometry().bottom() < editor->canvas()->height(), qPrintable(QString::number(tips->height())));
        auto* gotIt = tips->findChild<QPushButton*>(QStringLiteral("gotIt"));
        QVERIFY(gotIt);
        QVERIFY(gotIt->isVisible());
        QVERIFY(gotIt->mapTo(editor->canvas(), QPoint(0, gotIt->height())).y() <= editor->canvas()->height());
        // The wheel over the card scrolls its text, and past its end never zooms the image behind.
        const double scale = editor->canvas()->scale();
        auto* scroll = tips->findChild<QScrollArea*>();
        QVERIFY(scroll);
        for (int notch = 0; notch < 30; ++notch) {
            const QPointF at(10, 10);
            QWheelEvent wheel(at, scroll->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(scroll->viewport(), &wheel);
        }
        QVERIFY(scroll->verticalScrollBar()->value() > 0);
        QCOMPARE(editor->canvas()->scale(), scale);
        // "Got it" hands the keyboard to the canvas, where the tools' keys work.
        QApplication::setActiveWindow(editor.get());
        QVERIFY(QTest::qWaitForWindowActive(editor.get()));
        gotIt->setFocus();
        QTest::mouseClick(gotIt, Qt::LeftButton);
        QVERIFY(!tips->isVisible());
        QVERIFY(editor->canvas()->hasFocus());
        QVERIFY(ui::editor::LabelingTips::seen());
        QVERIFY(editor->openImage(1));
        QVERIFY(!tips->isVisible());
        editor->setDocument(nullptr);
        auto second = makeEditor(test);
        QVERIFY(second->openImage(0));
        QVERIFY(!second->labelingTips()->isVisible());
        second->labelingTips()->showAgain();
        QVERIFY(second->labelingTips()->isVisible());
        second->setDocument(nullptr);
        QSettings().setValue(QLatin1String(ui::editor::LabelingTips::kSeenKey), true);
    }

    // Issue 27, item 12: an image's pixel history outlives a switch to another image: back on
    // it, Undo takes the fill back (it was greyed out); a map rewritten on disk meanwhile starts a
    // fresh history instead of undoing into pixels that are no longer there.
    void pixelUndoSurvivesSwitchingImages()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        const cv::Mat before = editor->document()->labels().clone();
        QVERIFY(editor->fillUnlabelled(2));
        QVERIFY(editor->openImage(1));
        QVERIFY(editor->fillUnlabelled(1));
        QVERIFY(editor->openImage(0));
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 2), 0);
        QVERIFY(editor->undoGroup()->canUndo());
        editor->undoGroup()->undo();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != before), 0);
        editor->undoGroup()->redo();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 2), 0);

        // Image 1's map changes on disk while image 0 is open: image 1 opens as on disk, no undo.
        cv::Mat elsewhere(editor->document()->labels().size(), CV_8UC1, cv::Scalar(0));
        segstudio::data::writeLabelMap(test.project->labelMapPath(1), elsewhere, test.project->schema());
        QVERIFY(editor->openImage(1));
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 0), 0);
        QVERIFY(!editor->document()->undoStack()->canUndo());
    }

    // Issue 60.11: clearing an image's labels took six eraser strokes at the largest size. One
    // action (Shift+Del), one undo step; a protected class keeps its pixels; nothing to clear: no edit.
    void clearsTheImagesLabelsInOneEdit()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QVERIFY(editor->fillUnlabelled(2));
        const cv::Mat before = editor->document()->labels().clone();
        QVERIFY(cv::countNonZero(before != segstudio::data::kUnlabelled) > 0);
        QAction* clear = nullptr;
        for (QAction* action : editor->propagateActions())
            if (action->objectName() == QStringLiteral("clearLabels"))
                clear = action;
        QVERIFY(clear);
        QCOMPARE(clear->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_Delete));
        const int steps = editor->document()->undoStack()->count();
        clear->trigger();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != segstudio::data::kUnlabelled), 0);
        QCOMPARE(editor->document()->undoStack()->count(), steps + 1);
        editor->undoGroup()->undo();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != before), 0);
        editor->toolSettings()->setProtected(2, true);
        QVERIFY(editor->clearLabels());
        const cv::Mat& after = editor->document()->labels();
        QCOMPARE(cv::countNonZero((after != before) & (before == 2)), 0);  // class 2 kept
        QCOMPARE(cv::countNonZero((after != 2) & (after != segstudio::data::kUnlabelled)), 0);  // the rest cleared
        editor->toolSettings()->setProtected(2, false);
        QVERIFY(editor->clearLabels());
        QVERIFY(!editor->clearLabels());  // nothing left to clear
    }

    // Issue 27, item 16: a class added takes a colour far from the others' (no colour dialog to
    // wait for), becomes the class to paint with, and is scrolled into view in the panel.
    void anAddedClassIsSelectedWithADistinctColour()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        auto* panel = editor->classesPanel();
        panel->resize(300, 90);  // room for about one row: the new class must be scrolled to
        panel->show();
        const QColor colour = panel->distinctColour();
        for (const auto& c : test.project->schema().classes()) {
            const int dr = colour.red() - c.color.r, dg = colour.green() - c.color.g, db = colour.blue() - c.color.b;
            QVERIFY2(dr * dr + dg * dg + db * db > 60 * 60, qPrintable(QString::fromStdString(c.name)));
        }
        const auto id = editor->classesPanel()->addClass(QStringLiteral("bus"), colour);
        QVERIFY(id.has_value());
        QCOMPARE(editor->toolSettings()->currentClass(), *id);
        auto* table = panel->findChild<QTableWidget*>();
        QVERIFY(table);
        const QRect row = table->visualItemRect(table->item(panel->rowOf(*id), 1));
        QVERIFY2(table->viewport()->rect().intersects(row), "the new class is not in view");
        QVERIFY(table->item(panel->rowOf(*id), 1)->isSelected());
    }

    void brushStrokeSetsExactPixels()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QCOMPARE(editor->canvas()->scale(), 4.0);
        selectTool(*editor, "brush");
        editor->toolSettings()->setCurrentClass(1);
        editor->toolSettings()->setBrushSize(6);  // even: 6 pixels across, centred between pixels
        const std::vector<cv::Point> path{{5, 5}, {40, 8}, {20, 50}};
        drag(editor->canvas(), path);

        // A size-6 round dab, written out: the 6×6 box with top-left c - (3, 3), corners cut.
        const char* tip[] = {".####.", "######", "######", "######", "######", ".####."};
        cv::Mat ref(64, 64, CV_8UC1, cv::Scalar(255));
        const auto dab = [&](cv::Point c) {
            for (int y = 0; y < 6; ++y)
                for (int x = 0; x < 6; ++x)
                    if (tip[y][x] == '#')
                        ref.at<std::uint8_t>(c.y - 3 + y, c.x - 3 + x) = 1;
        };
        dab(path[0]);
        for (std::size_t i = 1; i < path.size(); ++i) {
            cv::LineIterator it(path[i - 1], path[i], 8);
            for (int k = 0; k < it.count; ++k, ++it)
                dab(it.pos());
        }
        QCOMPARE(cv::countNonZero(editor->document()->labels() != ref), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 1);  // one stroke, one entry
        QVERIFY(editor->isModified());
    }

    void fastStrokeHasNoGaps()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "brush");
        editor->toolSettings()->setBrushSize(1);
        // Three mouse events 60 pixels apart: a 1-pixel brush must still draw a connected line.
        drag(editor->canvas(), {{1, 1}, {62, 30}, {2, 62}});
        const cv::Mat painted = editor->document()->labels() == 0;
        cv::Mat components;
        QCOMPARE(cv::connectedComponents(painted, components, 8), 2);
        QVERIFY(cv::countNonZero(painted) >= 61 + 60);
    }

    void polygonToolEqualsFillPoly()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "polygon");
        editor->toolSettings()->setCurrentClass(2);
        const std::vector<cv::Point> points{{4, 4}, {50, 10}, {30, 30}, {58, 58}, {6, 40}};
        for (const cv::Point& p : points)
            QTest::mouseClick(editor->canvas(), Qt::LeftButton, {}, screenOf(p));
        QTest::keyClick(editor->canvas(), Qt::Key_Return);
        cv::Mat ref(64, 64, CV_8UC1, cv::Scalar(255));
        cv::fillPoly(ref, std::vector<std::vector<cv::Point>>{points}, cv::Scalar(2), cv::LINE_8);
        QCOMPARE(cv::countNonZero(editor->document()->labels() != ref), 0);
    }

    void lassoDragFillsTheTracedOutline()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "polygon");
        editor->toolSettings()->setCurrentClass(1);
        // One press-drag-release: every mouse position becomes a vertex, release closes and fills.
        const std::vector<cv::Point> path{{8, 6}, {30, 4}, {55, 12}, {58, 40}, {35, 30}, {20, 58}, {5, 35}};
        drag(editor->canvas(), path);
        cv::Mat ref(64, 64, CV_8UC1, cv::Scalar(255));
        cv::fillPoly(ref, std::vector<std::vector<cv::Point>>{path}, cv::Scalar(1), cv::LINE_8);
        QCOMPARE(cv::countNonZero(editor->document()->labels() != ref), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 1);
        QCOMPARE(editor->document()->undoStack()->text(0), QStringLiteral("Lasso fill"));
        // A press that does not move is a polygon click, not a lasso: nothing is filled yet.
        QTest::mouseClick(editor->canvas(), Qt::LeftButton, {}, screenOf({2, 60}));
        QCOMPARE(editor->document()->undoStack()->count(), 1);
    }

    void outlineModeShowsOnlyBoundaries()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QVERIFY(QTest::qWaitForWindowExposed(editor.get()));
        editor->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(editor.get()));
        editor->canvas()->setFocus();
        QTest::keyClick(editor->canvas(), Qt::Key_O);  // the "Outline Only" view action
        QVERIFY(editor->canvas()->outlineMode());
        // Paint in outline mode, so the overlay must follow the edit (the ring around it too).
        selectTool(*editor, "brush");
        editor->toolSettings()->setBrushShape(paint::BrushShape::Square);
        editor->toolSettings()->setBrushSize(9);
        editor->toolSettings()->setCurrentClass(2);
        drag(editor->canvas(), {{20, 20}, {40, 20}, {40, 40}});
        editor->toolSettings()->setCurrentClass(0);
        drag(editor->canvas(), {{40, 40}, {50, 50}});
        editor->canvas()->repaint();

        const cv::Mat& labels = editor->document()->labels();
        const QImage& overlay = editor->canvas()->overlay();
        const QColor colour[] = {QColor(128, 64, 128), QColor(64, 0, 128), QColor(0, 128, 0)};
        int edges = 0, interior = 0;
        for (int y = 0; y < 64; ++y) {
            for (int x = 0; x < 64; ++x) {
                const std::uint8_t v = labels.at<std::uint8_t>(y, x);
                bool edge = false;
                for (const cv::Point d : {cv::Point(1, 0), cv::Point(-1, 0), cv::Point(0, 1), cv::Point(0, -1)}) {
                    const cv::Point n(x + d.x, y + d.y);
                    edge |= n.x >= 0 && n.y >= 0 && n.x < 64 && n.y < 64 && labels.at<std::uint8_t>(n) != v;
                }
                const QRgb shown = overlay.pixel(x, y);
                if (edge && v != 255) {
                    ++edges;
                    QCOMPARE(QColor(shown), colour[v]);
                } else {
                    interior += v != 255;
                    QVERIFY2(qAlpha(shown) == 0, qPrintable(QStringLiteral("pixel %1,%2 drawn").arg(x).arg(y)));
                }
            }
        }
        QVERIFY(edges > 40);
        QVERIFY(interior > 100);  // the fill inside the outline is really hidden
        QTest::keyClick(editor->canvas(), Qt::Key_O);
        QCOMPARE(QColor(editor->canvas()->overlay().pixel(30, 20)), colour[2]);  // filled again
    }

    // Issue 12: the model's prediction in the editor: layers, hover, flip, and Accept as one
    // undoable edit that respects the locks and the confidence floor.
    void predictionLayersAndAccept()
    {
        EditorTestProject test;
        cv::Mat labels(64, 64, CV_8UC1, cv::Scalar(255));
        labels(cv::Rect(0, 0, 32, 64)).setTo(1);  // left half "car", right half unlabelled
        std::filesystem::create_directories(test.project->labelRoot());
        data::writeLabelMap(test.project->labelMapPath(0), labels, test.project->schema());
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        ui::editor::LabelDocument* doc = editor->document();
        const cv::Mat before = doc->labels().clone();

        // The model says "road" on the top half, "tree" below; sure on the left, unsure right.
        cv::Mat classes(64, 64, CV_8UC1, cv::Scalar(0)), confidence(64, 64, CV_8UC1, cv::Scalar(250));
        classes(cv::Rect(0, 32, 64, 32)).setTo(2);
        confidence(cv::Rect(32, 0, 32, 64)).setTo(60);
        const cv::Mat entropy(64, 64, CV_8UC1, cv::Scalar(10));
        QVERIFY(!editor->setPrediction(1, classes, confidence, entropy));  // not the open image
        QVERIFY(!editor->setPrediction(0, cv::Mat(8, 8, CV_8UC1, cv::Scalar(0)), confidence, entropy));
        QVERIFY(editor->setPrediction(0, classes, confidence, entropy));
        QVERIFY(
            editor->findChild<ui::editor::PredictionBar*>(QStringLiteral("predictionBar"))->isPredictionAvailable());

        ui::editor::LabelCanvas* canvas = editor->canvas();
        canvas->setPredictionView(ui::editor::PredictionLayer::View::Classes);
        QCOMPARE(QColor(canvas->predictionImage().pixel(40, 10)), QColor(128, 64, 128));  // road
        QCOMPARE(QColor(canvas->predictionImage().pixel(40, 50)), QColor(0, 128, 0));     // tree
        canvas->setPredictionView(ui::editor::PredictionLayer::View::Errors);
        QCOMPARE(canvas->predictionImage().pixel(10, 10),
                 ui::editor::PredictionLayer::kErrorColor);  // car labelled, road predicted
        QCOMPARE(qAlpha(canvas->predictionImage().pixel(40, 10)), 0);  // unlabelled: no error
        canvas->setPredictionView(ui::editor::PredictionLayer::View::Confidence);
        QCOMPARE(canvas->predictionImage().pixel(40, 10), segstudio::paint::ColourScale::turbo(60 / 255.0));
        // Hover names the label and the prediction.
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);
        QTest::mouseMove(canvas, screenOf({40, 50}));
        QVERIFY(!status.isEmpty());
        const QString text = status.last().first().toString();
        QVERIFY2(text.contains(QStringLiteral("unlabelled")) && text.contains(QStringLiteral("predicted tree (24%)")), qPrintable(text));
        // T flips: labels hidden, predicted classes shown.
        canvas->setShowPredictionInstead(true);
        QCOMPARE(canvas->prediction().view(), ui::editor::PredictionLayer::View::Classes);
        canvas->setShowPredictionInstead(false);
        QCOMPARE(canvas->prediction().view(), ui::editor::PredictionLayer::View::Confidence);

        // Accept into unlabelled pixels from 50 %: only the sure ones (none on the right) — nothing.
        paint::AcceptOptions options;
        options.minConfidence = 128;
        QCOMPARE(editor->acceptPrediction(options), std::int64_t(0));
        QCOMPARE(doc->undoStack()->count(), 0);
        // Everywhere, no floor, class "car" locked: the unlabelled right half takes the prediction,
        // the car pixels stay.
        options.unlabelledOnly = false;
        options.minConfidence = 0;
        editor->toolSettings()->setProtected(1, true);
        QCOMPARE(editor->acceptPrediction(options), std::int64_t(32 * 64));
        QCOMPARE(int(doc->labels().at<std::uint8_t>(10, 10)), 1);
        QCOMPARE(int(doc->labels().at<std::uint8_t>(10, 40)), 0);
        QCOMPARE(int(doc->labels().at<std::uint8_t>(50, 40)), 2);
        QCOMPARE(doc->undoStack()->count(), 1);
        // The error map follows the edit: the accepted pixels agree with the prediction.
        canvas->setPredictionView(ui::editor::PredictionLayer::View::Errors);
        QCOMPARE(qAlpha(canvas->predictionImage().pixel(40, 10)), 0);
        editor->undoGroup()->undo();
        QCOMPARE(cv::countNonZero(doc->labels() != before), 0);  // to the exact bytes
        // Another image: the prediction goes with the old one.
        QVERIFY(editor->openImage(1));
        QVERIFY(!canvas->hasPrediction());
        QVERIFY(
            !editor->findChild<ui::editor::PredictionBar*>(QStringLiteral("predictionBar"))->isPredictionAvailable());
    }

    void hiddenClassIsNotDrawn()
    {
        EditorTestProject test;
        cv::Mat labels(64, 64, CV_8UC1, cv::Scalar(255));
        labels(cv::Rect(0, 0, 32, 64)).setTo(1);
        labels(cv::Rect(32, 0, 32, 64)).setTo(2);
        std::filesystem::create_directories(test.project->labelRoot());
        data::writeLabelMap(test.project->labelMapPath(0), labels, test.project->schema());
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QCOMPARE(QColor(editor->canvas()->overlay().pixel(10, 10)), QColor(64, 0, 128));

        // Click the "visible" check box of class 1 ("car") in the classes panel.
        auto* table = editor->classesPanel()->findChild<QTableWidget*>();
        QVERIFY(table);
        editor->classesPanel()->show();
        table->resize(400, 300);
        int row = -1;
        for (int r = 0; r < table->rowCount(); ++r) {
            for (int c = 0; c < table->columnCount(); ++c) {
                if (table->item(r, c) && table->item(r, c)->text() == QStringLiteral("car"))
                    row = r;
            }
        }
        QVERIFY(row >= 0);
        QTableWidgetItem* visible = table->item(row, 0);
        QVERIFY(visible && (visible->flags() & Qt::ItemIsUserCheckable));
        QStyleOptionViewItem option;
        option.initFrom(table->viewport());
        option.rect = table->visualItemRect(visible);
        option.features |= QStyleOptionViewItem::HasCheckIndicator;
        const QRect check = table->style()->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &option, table);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, check.center());
        QCOMPARE(visible->checkState(), Qt::Unchecked);
        QVERIFY(!editor->canvas()->classVisible(1));

        editor->canvas()->repaint();
        const QImage& overlay = editor->canvas()->overlay();
        for (int y = 0; y < 64; y += 7) {
            QCOMPARE(qAlpha(overlay.pixel(5, y)), 0);                   // car: hidden
            QCOMPARE(QColor(overlay.pixel(40, y)), QColor(0, 128, 0));  // tree: still drawn
        }
        // Renaming a class rebuilds the panel: the class stays hidden there and on the canvas.
        QVERIFY(editor->classesPanel()->renameClass(1, QStringLiteral("vehicle")));
        QCOMPARE(table->item(row, 0)->checkState(), Qt::Unchecked);
        QVERIFY(!editor->canvas()->classVisible(1));
        visible = table->item(row, 0);
        // On screen the hidden half shows the image itself (dark grey background).
        editor->canvas()->waitForDisplayImage();
        QCOMPARE(QColor(editor->canvas()->grab().toImage().pixel(screenOf({5, 50}))), QColor(40, 40, 40));
        // The labels themselves are untouched; showing the class again draws it.
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 1), 32 * 64);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, check.center());
        QCOMPARE(QColor(editor->canvas()->overlay().pixel(5, 5)), QColor(64, 0, 128));
    }

    void grabCutFromStrokesPreviewsThenApplies()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "grabcut");
        QAction* action = editor->toolActions().at(6);
        QVERIFY2(action->toolTip().contains(QStringLiteral("Shift")), qPrintable(action->toolTip()));
        editor->toolSettings()->setCurrentClass(1);
        editor->toolSettings()->setBrushSize(3);
        ModifiedDrag stroke{editor->canvas()};
        stroke.run(Qt::ShiftModifier, {{14, 18}, {26, 22}, {20, 34}});  // over the red rectangle
        stroke.run(Qt::ControlModifier, {{50, 5}, {52, 58}});           // over the grey background
        auto* tool = qobject_cast<ui::editor::GrabCutTool*>(editor->canvas()->tool());
        QVERIFY(tool);
        tool->waitForSegmentation();  // GrabCut runs on a worker
        QVERIFY(tool->hasPreview());
        // Previewed only: nothing is labelled until the user applies it.
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 255), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 0);
        QTest::keyClick(editor->canvas(), Qt::Key_Return);
        QCOMPARE(editor->document()->undoStack()->count(), 1);

        cv::Mat object = cv::Mat::zeros(64, 64, CV_8UC1);
        object(cv::Rect(cv::Point(10, 10), cv::Point(31, 41))).setTo(255);  // the image's red rectangle
        const cv::Mat found = editor->document()->labels() == 1;
        const double iou = double(cv::countNonZero(found & object)) / cv::countNonZero(found | object);
        QVERIFY2(iou > 0.9, qPrintable(QString::number(iou)));
        QCOMPARE(cv::countNonZero((editor->document()->labels() != 255) & ~found), 0);  // one class only
    }

    // Issue 23: the smart click (C) over the model's class scores: a hover preview before the
    // click, one undo entry per click, Shift+click takes back; GrabCut without scores.
    // Issue 61.3: a drag along a thin thing labels it up to its edges, within the brush's band,
    // with no model at all; Shift+drag takes it back; each drag is one undo entry.
    void thinStrokeLabelsAlongItsDrag()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "thinstroke");
        auto* tool = qobject_cast<ui::editor::ThinStrokeTool*>(editor->canvas()->tool());
        QVERIFY(tool);
        editor->toolSettings()->setCurrentClass(1);
        editor->toolSettings()->setBrushSize(30);  // a band of 15 px either side: the whole red column
        drag(editor->canvas(), {{20, 12}, {20, 20}, {21, 30}, {20, 38}});
        const cv::Rect red(cv::Point(10, 10), cv::Point(31, 41));
        cv::Mat expected(64, 64, CV_8UC1, cv::Scalar(255));
        expected(red).setTo(1);
        QCOMPARE(cv::countNonZero(editor->document()->labels() != expected), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 1);

        ModifiedDrag{editor->canvas()}.run(Qt::ShiftModifier, {{20, 12}, {20, 38}});
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 255), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 2);
        editor->document()->undoStack()->undo();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != expected), 0);
        editor->document()->undoStack()->undo();

        // A narrow brush keeps the labels within its band of the drag, however far the colour goes.
        editor->toolSettings()->setBrushSize(6);
        drag(editor->canvas(), {{20, 12}, {20, 38}});
        const cv::Mat labelled = editor->document()->labels() == 1;
        QVERIFY(cv::countNonZero(labelled) > 0);
        QCOMPARE(cv::countNonZero(labelled(cv::Rect(0, 0, 17, 64))), 0);
        QCOMPARE(cv::countNonZero(labelled(cv::Rect(24, 0, 40, 64))), 0);
    }

    void smartClickLabelsTheRegionTheModelWasUnsureOf()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "smartclick");
        auto* tool = qobject_cast<ui::editor::SmartClickTool*>(editor->canvas()->tool());
        QVERIFY(tool);
        QVERIFY(!tool->usesModel());  // no prediction yet: GrabCut

        // The model: road everywhere, unsure (0.55 road, 0.35 car) over the image's red rectangle.
        const cv::Rect red(cv::Point(10, 10), cv::Point(31, 41));
        const cv::Mat scores = smartClickScores();
        const cv::Mat classes(64, 64, CV_8UC1, cv::Scalar(0)), confidence(64, 64, CV_8UC1, cv::Scalar(200));
        QVERIFY(editor->setPrediction(0, classes, confidence, confidence, scores));
        tool->waitUntilReady();
        QVERIFY(tool->usesModel());

        editor->toolSettings()->setCurrentClass(1);
        tool->previewAt({20, 25});
        QCOMPARE(tool->hoverPreview().bounds, red);
        QCOMPARE(tool->hoverPreview().area(), std::int64_t(red.area()));
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 255), 0);  // previewed only

        QTest::mouseClick(editor->canvas(), Qt::LeftButton, {}, screenOf({20, 25}));
        cv::Mat expected(64, 64, CV_8UC1, cv::Scalar(255));
        expected(red).setTo(1);
        QCOMPARE(cv::countNonZero(editor->document()->labels() != expected), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 1);

        QTest::mouseClick(editor->canvas(), Qt::LeftButton, Qt::ShiftModifier, screenOf({20, 25}));
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 255), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 2);
        editor->document()->undoStack()->undo();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != expected), 0);
        QVERIFY(!tool->session());  // the undo ended the session: its "before" is history now

        // Without class scores the clicks seed GrabCut.
        editor->document()->undoStack()->undo();
        QVERIFY(editor->setPrediction(0, classes, confidence, confidence));
        QVERIFY(!tool->usesModel());
        QTest::mouseClick(editor->canvas(), Qt::LeftButton, {}, screenOf({20, 25}));
        const cv::Mat found = editor->document()->labels() == 1, object = expected == 1;
        const double iou = double(cv::countNonZero(found & object)) / cv::countNonZero(found | object);
        QVERIFY2(iou > 0.8, qPrintable(QString::number(iou)));
    }

    // GrabCut off the GUI thread: Esc while it runs drops its result; Enter while it runs applies
    // the result when it comes, as one undo entry.
    void grabCutRunsInTheBackground()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "grabcut");
        editor->toolSettings()->setCurrentClass(2);
        auto* tool = qobject_cast<ui::editor::GrabCutTool*>(editor->canvas()->tool());
        QVERIFY(tool);
        drag(editor->canvas(), {{5, 5}, {36, 46}});  // a rectangle around the red one
        QTest::keyClick(editor->canvas(), Qt::Key_Escape);
        tool->waitForSegmentation();
        QVERIFY(!tool->hasPreview());  // stale: dropped
        QCOMPARE(editor->document()->undoStack()->count(), 0);

        drag(editor->canvas(), {{5, 5}, {36, 46}});
        QTest::keyClick(editor->canvas(), Qt::Key_Return);
        tool->waitForSegmentation();
        QCOMPARE(editor->document()->undoStack()->count(), 1);
        QVERIFY(cv::countNonZero(editor->document()->labels() == 2) > 400);
    }

    // Undo follows the last edit across reopening an image and opening another: after a pixel
    // edit the open image's stack is the active one, never a closed image's.
    void editingAfterReopeningTheImage()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QVERIFY(editor->fillUnlabelled(1));
        QVERIFY(editor->save());
        for (int round = 0; round < 3; ++round) {
            QVERIFY(editor->openImage(0));  // the same image again, from disk
            QVERIFY(editor->fillUnlabelled(2) || editor->document()->undoStack()->count() == 0);
            QVERIFY(editor->undoGroup()->activeStack() == editor->document()->undoStack() ||
                    editor->undoGroup()->activeStack() == nullptr);
            QVERIFY(editor->save());
            QVERIFY(editor->openImage(1));
            selectTool(*editor, "brush");
            drag(editor->canvas(), {{3, 3}, {20, 20}});
            QCOMPARE(editor->undoGroup()->activeStack(), editor->document()->undoStack());
            editor->undoGroup()->undo();
        }
    }

    // Opening the next image while superpixels compute does not wait for them: the tool follows
    // the new image and ends up with its superpixels, never the last image's.
    void superpixelsFollowTheNextImageWithoutWaiting()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        editor->toolSettings()->setSuperpixelSize(12);
        selectTool(*editor, "superpixel");
        auto* tool = qobject_cast<ui::editor::SuperpixelTool*>(editor->canvas()->tool());
        QVERIFY(tool);
        QVERIFY(editor->openImage(1));  // while image 0's superpixels may still be computing
        tool->waitUntilReady();
        QVERIFY(tool->ready());
        const cv::Mat expected = paint::SuperpixelMap::compute(editor->document()->image(), 12).ids();
        QCOMPARE(cv::countNonZero(tool->map().ids() != expected), 0);
    }

    void superpixelBoundariesShownWhileToolActive()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QVERIFY(QTest::qWaitForWindowExposed(editor.get()));
        editor->canvas()->waitForDisplayImage();
        const QImage before = editor->canvas()->grab().toImage();
        editor->toolSettings()->setSuperpixelSize(12);
        selectTool(*editor, "superpixel");
        auto* tool = qobject_cast<ui::editor::SuperpixelTool*>(editor->canvas()->tool());
        QVERIFY(tool);
        tool->waitUntilReady();
        QVERIFY(tool->ready());

        // The boundary image marks exactly the pixels with a 4-neighbour of another superpixel
        // (the one boundary rule, as the outlines and the BF score).
        const cv::Mat& ids = tool->map().ids();
        const QImage& edges = tool->boundaries();
        QCOMPARE(edges.size(), QSize(64, 64));
        int marked = 0;
        for (int y = 0; y < 64; ++y) {
            for (int x = 0; x < 64; ++x) {
                const int id = ids.at<int>(y, x);
                const bool boundary = (x < 63 && ids.at<int>(y, x + 1) != id) || (y < 63 && ids.at<int>(y + 1, x) != id) ||
                                      (x > 0 && ids.at<int>(y, x - 1) != id) || (y > 0 && ids.at<int>(y - 1, x) != id);
                QCOMPARE(qAlpha(edges.pixel(x, y)) > 0, boundary);
                marked += boundary;
            }
        }
        QVERIFY(marked > 64);  // more than one superpixel

        // Drawn on the canvas while the tool is active, gone when another tool is chosen.
        const QImage active = editor->canvas()->grab().toImage();
        QVERIFY(active != before);
        cv::Point onEdge(-1, -1);
        for (int y = 0; y < 64 && onEdge.x < 0; ++y)
            for (int x = 0; x < 64 && onEdge.x < 0; ++x)
                if (qAlpha(edges.pixel(x, y)) > 0)
                    onEdge = {x, y};
        QVERIFY(QColor(active.pixel(screenOf(onEdge))) != QColor(before.pixel(screenOf(onEdge))));
        selectTool(*editor, "brush");
        QCOMPARE(editor->canvas()->grab().toImage(), before);
    }

    void undoRedoRestoresExactBytesAfterMixedEdits()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        ui::editor::LabelDocument* doc = editor->document();
        std::vector<cv::Mat> states{doc->labels().clone()};

        selectTool(*editor, "brush");
        editor->toolSettings()->setCurrentClass(1);
        editor->toolSettings()->setBrushSize(9);
        drag(editor->canvas(), {{10, 10}, {50, 50}});
        states.push_back(doc->labels().clone());

        selectTool(*editor, "wand");  // the red rectangle of the image, by colour
        editor->toolSettings()->setCurrentClass(2);
        QTest::mouseClick(editor->canvas(), Qt::LeftButton, {}, screenOf({20, 35}));
        states.push_back(doc->labels().clone());

        selectTool(*editor, "eraser");
        editor->toolSettings()->setBrushShape(paint::BrushShape::Square);
        drag(editor->canvas(), {{0, 30}, {63, 30}});
        states.push_back(doc->labels().clone());

        selectTool(*editor, "fill");  // the unlabelled background
        editor->toolSettings()->setCurrentClass(0);
        QTest::mouseClick(editor->canvas(), Qt::LeftButton, {}, screenOf({60, 2}));
        states.push_back(doc->labels().clone());

        QCOMPARE(doc->undoStack()->count(), 4);
        for (std::size_t i = 1; i < states.size(); ++i)
            QVERIFY2(cv::countNonZero(states[i] != states[i - 1]) > 0, "every edit changed something");
        for (int i = 3; i >= 0; --i) {
            editor->undoGroup()->undo();
            QCOMPARE(cv::countNonZero(doc->labels() != states[static_cast<std::size_t>(i)]), 0);
        }
        QVERIFY(!editor->isModified());
        for (std::size_t i = 1; i < states.size(); ++i) {
            editor->undoGroup()->redo();
            QCOMPARE(cv::countNonZero(doc->labels() != states[i]), 0);
        }
        QVERIFY(editor->isModified());
        // The overlay follows undo: pixel (60,2) shows class 0's colour.
        QCOMPARE(QColor(editor->canvas()->overlay().pixel(60, 2)), QColor(128, 64, 128));
    }

    // Opening prepares what the first paint needs on the loading threads: the overlay comes
    // composed and the RGB32 display copy is in use at once, so the GUI thread only draws.
    void openPreparesOverlayAndDisplayOnWorkers()
    {
        EditorTestProject test;
        cv::Mat labels(64, 64, CV_8UC1, cv::Scalar(255));
        labels(cv::Rect(0, 0, 20, 64)).setTo(1);
        std::filesystem::create_directories(test.project->labelRoot());
        data::writeLabelMap(test.project->labelMapPath(0), labels, test.project->schema());
        data::writeLabelMap(test.project->labelMapPath(1), labels, test.project->schema());
        auto editor = makeEditor(test);
        QSignalSpy labelled(editor.get(), &ui::editor::LabelEditor::imageLabelled);
        QVERIFY(editor->requestImage(0));
        QTRY_VERIFY(!editor->isOpening());
        QCOMPARE(editor->canvas()->composedTileCount(), 1);  // composed before any paint
        // The counts came from the loading thread too.
        QVERIFY(!labelled.isEmpty());
        QCOMPARE(labelled.last().at(1).toDouble(), 20.0 * 64 / (64.0 * 64));
        QCOMPARE(QColor(editor->canvas()->overlay().pixel(5, 5)), QColor(64, 0, 128));
        QCOMPARE(qAlpha(editor->canvas()->overlay().pixel(40, 5)), 0);
        // The RGB32 display copy shows the image's colours in the right channel order.
        QVERIFY(QTest::qWaitForWindowExposed(editor.get()));
        const QImage shown = editor->canvas()->grab().toImage();
        QCOMPARE(QColor(shown.pixel(screenOf({25, 20}))), QColor(220, 30, 30));
        QCOMPARE(QColor(shown.pixel(screenOf({50, 50}))), QColor(40, 40, 40));
        // The style changes while the next image loads (outline mode): its overlay, composed in the
        // old style, is not used; the tiles compose lazily in the new one.
        QVERIFY(editor->requestImage(1));
        for (QAction* action : editor->viewActions())
            if (action->objectName() == QLatin1String("view.outline"))
                action->setChecked(true);
        QTRY_VERIFY(!editor->isOpening());
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(1));
        QCOMPARE(qAlpha(editor->canvas()->overlay().pixel(5, 5)), 0);                // inside the band: no outline
        QCOMPARE(QColor(editor->canvas()->overlay().pixel(19, 5)), QColor(64, 0, 128));  // its edge
    }

    // Minified (a 1200 px image in a 256 px view), the canvas draws the loader's fit-scale copies;
    // the first edit drops the overlay's copy, so the view never shows labels that have changed.
    void fitScaleCopiesFollowTheFirstEdit()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const data::ClassSchema schema({{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"}});
        data::Project made(root / "big.segstudio", schema);
        data::writeImageRgb(root / "big.png", cv::Mat(1200, 1200, CV_8UC3, cv::Scalar(40, 40, 40)));
        made.addImage(root / "big.png");
        std::filesystem::create_directories(made.labelRoot());
        data::writeLabelMap(made.labelMapPath(0), cv::Mat(1200, 1200, CV_8UC1, cv::Scalar(0)), schema);
        made.save();
        document::ProjectDocument project(made);
        ui::editor::LabelEditor editor;
        editor.setRecoveryPrompt([](const QStringList&) { return false; });
        editor.setDocument(&project);
        editor.canvas()->setFixedSize(256, 256);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY(editor.requestImage(0));
        QTRY_VERIFY(!editor.isOpening());
        editor.canvas()->fitToWindow();
        QVERIFY(editor.canvas()->scale() < 0.5);
        const QPoint centre(128, 128);
        const QColor road = editor.canvas()->grab().toImage().pixelColor(centre);
        QVERIFY2(road.blue() > road.green() + 20, qPrintable(road.name()));  // road (128, 64, 128) over grey
        ui::editor::LabelDocument* doc = editor.document();
        doc->paintRegion(paint::RegionMask::ofValue(doc->labels(), 0), 1, paint::WriteGuard(), QStringLiteral("car"));
        const QColor car = editor.canvas()->grab().toImage().pixelColor(centre);
        QVERIFY2(car.red() < road.red() - 20, qPrintable(car.name() + QStringLiteral(" after ") + road.name()));  // car (64, 0, 128)
    }

    void saveWritesMapAndSwitchAutosaves()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QSignalSpy labelled(editor.get(), &ui::editor::LabelEditor::imageLabelled);
        QVERIFY(editor->openImage(0));
        QVERIFY(editor->fillUnlabelled(2));
        const cv::Mat edited = editor->document()->labels().clone();
        QVERIFY(editor->openImage(1));  // autosaves image 0
        QVERIFY(!editor->isModified());
        const cv::Mat onDisk = data::readLabelMap(test.project->labelMapPath(0), test.project->schema());
        QCOMPARE(cv::countNonZero(onDisk != edited), 0);
        QVERIFY(!labelled.isEmpty());
    }

    void crashRecoveryRestoresUnsavedWork()
    {
        EditorTestProject test;
        cv::Mat painted;
        {
            auto editor = makeEditor(test);
            QVERIFY(editor->openImage(1));
            selectTool(*editor, "brush");
            drag(editor->canvas(), {{3, 3}, {60, 20}});
            painted = editor->document()->labels().clone();
            QVERIFY(editor->writeRecovery());
            // "Crash": the editor goes away without saving (no setDocument(nullptr), no save()).
        }
        QVERIFY(!std::filesystem::exists(test.project->labelMapPath(1)));
        data::RecoveryStore store(test.project->root());
        QVERIFY(store.find(test.project->entry(1).image).has_value());

        QStringList prompted;
        auto editor = makeEditor(test, true, &prompted);
        QCOMPARE(prompted.size(), 1);
        QVERIFY2(prompted.first().startsWith(QStringLiteral("image1.png — ")), qPrintable(prompted.first()));
        QCOMPARE(editor->recoveredImage(), std::optional<std::size_t>(1));
        QVERIFY(editor->openImage(1));
        QCOMPARE(cv::countNonZero(editor->document()->labels() != painted), 0);
        QVERIFY(editor->isModified());
        QVERIFY(editor->save());
        editor->writeRecovery();  // the removal is queued behind any write: wait for it
        QVERIFY(!store.find(test.project->entry(1).image).has_value());
        QVERIFY(!editor->isModified());
    }

    // Issue 9.1: an undone stroke must not come back from the recovery folder.
    void undoToTheSavedStateRemovesTheRecoveryCopy()
    {
        EditorTestProject test;
        data::RecoveryStore store(test.project->root());
        const std::string key = test.project->entry(0).image;
        {
            auto editor = makeEditor(test);
            editor->setRecoveryDelay(20);
            QVERIFY(editor->openImage(0));
            selectTool(*editor, "brush");
            drag(editor->canvas(), {{3, 3}, {60, 20}});
            QTRY_VERIFY_WITH_TIMEOUT(store.find(key).has_value(), 5000);  // written without being asked
            editor->undoGroup()->undo();
            QVERIFY(!editor->isModified());
            QTRY_VERIFY_WITH_TIMEOUT(!store.find(key).has_value(), 5000);
            // Redo makes the state unsaved again: the copy comes back with exactly those labels.
            editor->undoGroup()->redo();
            const cv::Mat redone = editor->document()->labels().clone();
            QTRY_VERIFY_WITH_TIMEOUT(store.find(key).has_value(), 5000);
            editor->writeRecovery();
            const cv::Mat copy = store.restore(*store.find(key), test.project->schema());
            QCOMPARE(cv::countNonZero(copy != redone), 0);
            editor->undoGroup()->undo();
            // Closed right away, before the delay: the removal still happens (no prompt, clean).
        }
        QVERIFY(!store.find(key).has_value());
        QStringList prompted;
        auto editor = makeEditor(test, true, &prompted);
        QVERIFY(prompted.isEmpty());
        QVERIFY(editor->openImage(0));
        QVERIFY(!editor->isModified());
        QCOMPARE(cv::countNonZero(editor->document()->labels() != data::kUnlabelled), 0);
        QVERIFY(editor->openImage(1));
        QVERIFY(!std::filesystem::exists(test.project->labelMapPath(0)));  // nothing written on switch
    }

    // Issue 9.2: Discard deletes the copies; Restore brings them back as one undoable edit.
    void recoveryOffersRestoreOrDiscard()
    {
        EditorTestProject test;
        data::RecoveryStore store(test.project->root());
        const std::string key = test.project->entry(1).image;
        const auto crashWithAStroke = [&] {
            auto editor = makeEditor(test);
            QVERIFY(editor->openImage(1));
            selectTool(*editor, "brush");
            drag(editor->canvas(), {{3, 3}, {60, 20}});
            QVERIFY(editor->writeRecovery());
        };
        crashWithAStroke();
        {
            QStringList prompted;
            auto editor = makeEditor(test, false, &prompted);
            QCOMPARE(prompted.size(), 1);
            QVERIFY(!store.find(key).has_value());
            QVERIFY(!editor->recoveredImage().has_value());
            QVERIFY(editor->openImage(1));
            QVERIFY(!editor->isModified());
        }
        crashWithAStroke();
        auto editor = makeEditor(test, true);
        editor->setRecoveryDelay(20);
        QVERIFY(editor->openImage(1));
        QVERIFY(editor->isModified());
        QVERIFY(cv::countNonZero(editor->document()->labels() != data::kUnlabelled) > 0);
        QCOMPARE(editor->document()->undoStack()->count(), 1);
        editor->undoGroup()->undo();
        QVERIFY(!editor->isModified());
        QCOMPARE(cv::countNonZero(editor->document()->labels() != data::kUnlabelled), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!store.find(key).has_value(), 5000);
    }

    // Issue 9.3: switching images saves and says so; with the preference off, it asks.
    void switchingSavesAndSaysSoOrAsks()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QSignalSpy saved(editor.get(), &ui::editor::LabelEditor::labelsSaved);
        QVERIFY(editor->openImage(0));
        QVERIFY(editor->fillUnlabelled(2));
        QVERIFY(editor->openImage(1));
        QCOMPARE(saved.count(), 1);
        // Issue 27, item 15: it names the label map written (relative to the project folder),
        // not the image, which read as if the source image had been overwritten.
        const QString written = saved.first().first().toString();
        QVERIFY2(written != QStringLiteral("image0.png") && written.endsWith(QStringLiteral(".png")), qPrintable(written));
        QCOMPARE(QDir::cleanPath(test.dir.filePath(written)),
                 QString::fromStdString(test.project->labelMapPath(0).string()));
        QVERIFY(QFileInfo::exists(test.dir.filePath(written)));

        editor->setSaveOnSwitch(false);
        QVERIFY(editor->fillUnlabelled(1));
        const auto answer = [](QMessageBox::StandardButton button) {
            QTimer::singleShot(0, [button] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                    box->button(button)->click();
            });
        };
        answer(QMessageBox::Cancel);
        QVERIFY(!editor->openImage(0));
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(1));
        QVERIFY(editor->isModified());
        answer(QMessageBox::Discard);
        QVERIFY(editor->openImage(0));
        QVERIFY(!std::filesystem::exists(test.project->labelMapPath(1)));
        QCOMPARE(saved.count(), 1);
    }

    void saveIntoReadOnlyFolderKeepsEdits()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QSignalSpy errors(editor.get(), &ui::editor::LabelEditor::errorOccurred);
        QVERIFY(editor->openImage(0));
        QVERIFY(editor->fillUnlabelled(1));
        const cv::Mat edited = editor->document()->labels().clone();
        const std::filesystem::path labelDir = test.project->labelRoot();
        std::filesystem::create_directories(labelDir);
        std::filesystem::permissions(labelDir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
        const bool permissionsBite = !std::ofstream(labelDir / "probe").good();
        if (!permissionsBite) {
            // Running as root, where permissions do not stop writes: a file where the folder
            // should be fails the same way, for everybody.
            std::filesystem::remove_all(labelDir);
            std::ofstream(labelDir) << "not a folder";
        }
        QVERIFY(!editor->save());
        QCOMPARE(errors.count(), 1);
        const QString message = errors.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("image0")), qPrintable(message));
        QVERIFY(editor->isModified());
        QCOMPARE(cv::countNonZero(editor->document()->labels() != edited), 0);
        QVERIFY(!editor->openImage(1));  // switching would lose the edits: refused
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
        std::filesystem::permissions(labelDir, std::filesystem::perms::owner_all);
    }

    void mergeAndDeleteRelabelTheDataset()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        for (std::size_t i = 0; i < 2; ++i) {
            cv::Mat labels(64, 64, CV_8UC1, cv::Scalar(0));
            labels(cv::Rect(0, 0, 32, 64)).setTo(1);
            labels(cv::Rect(0, 0, 10, 10)).setTo(2);
            std::filesystem::create_directories(test.project->labelRoot());
            data::writeLabelMap(test.project->labelMapPath(i), labels, test.project->schema());
        }
        QVERIFY(editor->openImage(0));
        QVERIFY(editor->classesPanel()->mergeClasses(1, 2));
        QVERIFY(test.document->waitForIdle());
        QVERIFY(!test.project->schema().contains(1));
        for (std::size_t i = 0; i < 2; ++i) {
            const cv::Mat map = data::readLabelMap(test.project->labelMapPath(i), test.project->schema());
            QCOMPARE(cv::countNonZero(map == 2), 32 * 64);
            QCOMPARE(cv::countNonZero(map == 0), 32 * 64);
        }
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 2), 32 * 64);  // the open image too
        QVERIFY(editor->classesPanel()->deleteClass(2));
        QVERIFY(test.document->waitForIdle());
        const cv::Mat map = data::readLabelMap(test.project->labelMapPath(1), test.project->schema());
        QCOMPARE(cv::countNonZero(map == 255), 32 * 64);
        // The project file on disk carries the new schema.
        QVERIFY(!data::Project::load(test.project->file()).schema().contains(2));
    }

    // The browser opens images without waiting: decoded on workers, swapped in on the GUI thread;
    // a second request drops the first one's result, and the image on screen takes no edit meanwhile.
    void requestImageOpensInTheBackgroundAndDropsStaleResults()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QSignalSpy opened(editor.get(), &ui::editor::LabelEditor::imageOpened);
        QVERIFY(editor->requestImage(1));
        QVERIFY(editor->isOpening());
        QVERIFY(!editor->canvas()->isEditable());
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(0));  // still on screen
        drag(editor->canvas(), {{5, 5}, {30, 5}});                          // ... but takes no stroke
        QCOMPARE(editor->document()->undoStack()->count(), 0);
        QVERIFY(!editor->isModified());
        QVERIFY(editor->requestImage(0));  // changed its mind: image 1's result is stale
        QTRY_VERIFY(!editor->isOpening());
        // Image 1's decoding finishes too, and its (stale) answer is delivered: it changes nothing.
        QVERIFY(segstudio::document::workerPool()->waitForDone(60000));
        QCoreApplication::processEvents();
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().first().value<std::size_t>(), std::size_t(0));
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
        QVERIFY(editor->canvas()->isEditable());
        QVERIFY(editor->requestImage(1));
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(1));
        QCOMPARE(editor->document()->imageKey(), test.project->entry(1).image);
    }

    // An image still decoding when a merge starts was read before the maps are rewritten: it is
    // opened again once the merge is done, so the editor never shows an id the schema has lost.
    void anOpenInterruptedByAMergeShowsTheMergedLabels()
    {
        EditorTestProject test;
        std::filesystem::create_directories(test.project->labelRoot());
        data::writeLabelMap(test.project->labelMapPath(0), cv::Mat(64, 64, CV_8UC1, cv::Scalar(1)), test.project->schema());
        // Image 1 is big and noisy, so its decode outlasts the merge of two small maps: its label
        // map is read before the merge rewrites it, and the image would arrive after the merge.
        cv::Mat noise(2000, 2000, CV_8UC3);
        cv::randu(noise, 0, 255);
        data::writeImageRgb(test.project->imagePath(1), noise);
        data::writeLabelMap(test.project->labelMapPath(1), cv::Mat(2000, 2000, CV_8UC1, cv::Scalar(1)), test.project->schema());
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QVERIFY(editor->requestImage(1));
        QVERIFY(editor->classesPanel()->mergeClasses(1, 2));
        QVERIFY(test.document->waitForIdle());
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(1));
        QTRY_VERIFY(!editor->isOpening());
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 1), 0);
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 2), 2000 * 2000);
        QVERIFY(editor->canvas()->isEditable());
    }

    // Class operations are project commands: they never wipe the open image's pixel history. A
    // merge maps the history's ids too (undoing a stroke never brings the merged class back), and
    // undoing the merge gives back the exact pixels of before.
    void pixelHistorySurvivesClassOperations()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QUndoStack* pixels = editor->document()->undoStack();
        editor->toolSettings()->setCurrentClass(1);
        drag(editor->canvas(), {{4, 8}, {40, 8}});
        editor->toolSettings()->setCurrentClass(2);
        drag(editor->canvas(), {{4, 30}, {40, 30}});
        QCOMPARE(pixels->count(), 2);
        QVERIFY(editor->save());
        const cv::Mat beforeMerge = editor->document()->labels().clone();
        QVERIFY(cv::countNonZero(beforeMerge == 1) > 0);

        QVERIFY(editor->classesPanel()->renameClass(0, QStringLiteral("street")));
        QVERIFY(editor->classesPanel()->recolourClass(2, QColor(10, 200, 10)));
        QVERIFY(editor->classesPanel()->addClass(QStringLiteral("bus"), QColor(200, 200, 0)).has_value());
        QCOMPARE(pixels->count(), 2);
        QCOMPARE(pixels->index(), 2);

        QVERIFY(editor->classesPanel()->mergeClasses(1, 2));
        QVERIFY(test.document->waitForIdle());
        QCOMPARE(editor->document()->undoStack(), pixels);  // the same image, the same history
        QCOMPARE(pixels->count(), 2);
        QVERIFY(!editor->isModified());
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 1), 0);
        pixels->undo();  // the class-2 stroke goes; what it painted over is back, with ids mapped
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 1), 0);
        QVERIFY(cv::countNonZero(editor->document()->labels() == 2) > 0);
        pixels->redo();
        QVERIFY(!editor->isModified());

        test.document->undoStack()->undo();  // the merge
        QVERIFY(test.document->waitForIdle());
        QCOMPARE(cv::countNonZero(editor->document()->labels() != beforeMerge), 0);
        QVERIFY(!editor->isModified());
        pixels->undo();
        pixels->undo();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 255), 0);
        QCOMPARE(test.project->schema().find(0)->name, std::string("street"));
    }

    // The project is open in another document (another window holds its lock): the editor says
    // so, shows the image, and its canvas takes no edit (nothing could be saved).
    void aProjectOpenElsewhereIsReadOnlyInTheEditor()
    {
        EditorTestProject test;  // its document holds the lock
        auto document = document::ProjectDocument::open(test.project->file());
        QVERIFY(document->isReadOnly());
        ui::editor::LabelEditor editor;
        QSignalSpy status(&editor, &ui::editor::LabelEditor::statusMessage);
        editor.setDocument(document.get());
        QVERIFY(!status.isEmpty());
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("another SegStudio")),
                 qPrintable(status.last().first().toString()));
        QVERIFY(editor.openImage(0));
        QVERIFY(!editor.canvas()->isEditable());
        QVERIFY(!std::filesystem::exists(data::RecoveryStore(test.project->root()).folder()));
    }

    void hotkeysAndStatus()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);
        // Shortcuts fire only in the active window.
        editor->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(editor.get()));
        editor->canvas()->setFocus();
        QTest::keyClick(editor->canvas(), Qt::Key_3);
        QCOMPARE(editor->toolSettings()->currentClass(), 2);
        QTest::keyClick(editor->canvas(), Qt::Key_P);
        QVERIFY(editor->toolActions().at(2)->isChecked());
        const int size = editor->toolSettings()->brushSize();
        QTest::keyClick(editor->canvas(), Qt::Key_BracketRight);
        QVERIFY(editor->toolSettings()->brushSize() > size);
        QTest::mouseMove(editor->canvas(), screenOf({12, 7}));
        QVERIFY(!status.isEmpty());
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("x 12, y 7")),
                 qPrintable(status.last().first().toString()));
    }

    // Issue 50, section 4: the hover preview of Smart Click follows the cursor only over the image:
    // it stayed after the cursor left the canvas, and came back on the next image at the old spot
    // once that image's prediction was ready, looking like labels that were not there.
    // Shift+click on labels of an earlier session (issue 51.5: it did nothing, without a word):
    // the region of that label there becomes unlabelled as one edit, and the status line says so;
    // on an unlabelled pixel it says there is nothing to take back.
    void smartShiftClickTakesBackAnEarlierSession()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "smartclick");
        auto* tool = qobject_cast<ui::editor::SmartClickTool*>(editor->canvas()->tool());
        const cv::Mat classes(64, 64, CV_8UC1, cv::Scalar(0)), confidence(64, 64, CV_8UC1, cv::Scalar(200));
        QVERIFY(editor->setPrediction(0, classes, confidence, confidence, smartClickScores()));
        tool->waitUntilReady();
        const cv::Rect red(cv::Point(10, 10), cv::Point(31, 41));
        editor->toolSettings()->setCurrentClass(1);
        QTest::mouseClick(editor->canvas(), Qt::LeftButton, {}, screenOf({20, 25}));
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 1), red.area());
        editor->toolSettings()->setCurrentClass(2);  // ends the session
        QVERIFY(!tool->session());

        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);
        QTest::mouseClick(editor->canvas(), Qt::LeftButton, Qt::ShiftModifier, screenOf({15, 35}));
        QCOMPARE(cv::countNonZero(editor->document()->labels() != 255), 0);
        QCOMPARE(editor->document()->undoStack()->count(), 2);
        QVERIFY(!status.isEmpty());
        QVERIFY2(status.last().at(0).toString().contains(QStringLiteral("Took back %1").arg(red.area())),
                 qPrintable(status.last().at(0).toString()));

        QTest::mouseClick(editor->canvas(), Qt::LeftButton, Qt::ShiftModifier, screenOf({50, 50}));
        QCOMPARE(editor->document()->undoStack()->count(), 2);
        QVERIFY2(status.last().at(0).toString().contains(QStringLiteral("has none")),
                 qPrintable(status.last().at(0).toString()));
        editor->document()->undoStack()->undo();
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 1), red.area());
        QTest::keyRelease(editor->canvas(), Qt::Key_Shift);  // the application's modifiers, for the tests after
    }

    void smartClickPreviewGoesWithTheCursor()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        selectTool(*editor, "smartclick");
        auto* tool = qobject_cast<ui::editor::SmartClickTool*>(editor->canvas()->tool());
        QVERIFY(tool);
        const cv::Mat scores = smartClickScores();
        const cv::Mat classes(64, 64, CV_8UC1, cv::Scalar(0)), confidence(64, 64, CV_8UC1, cv::Scalar(200));
        QVERIFY(editor->setPrediction(0, classes, confidence, confidence, scores));
        tool->waitUntilReady();
        QVERIFY(tool->usesModel());

        QTest::mouseMove(editor->canvas(), screenOf({20, 25}));
        QTRY_VERIFY(!tool->hoverPreview().empty());  // once the mouse rests
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(editor->canvas(), &leave);
        QVERIFY(tool->hoverPreview().empty());
        QTest::qWait(100);  // and no timer brings it back
        QVERIFY(tool->hoverPreview().empty());

        QTest::mouseMove(editor->canvas(), screenOf({22, 27}));
        QTRY_VERIFY(!tool->hoverPreview().empty());
        QVERIFY(editor->openImage(1));
        QVERIFY(tool->hoverPreview().empty());
        QVERIFY(editor->setPrediction(1, classes, confidence, confidence, scores));
        tool->waitUntilReady();
        QTest::qWait(100);  // the segmenter's finished() has come: it finds no spot to preview
        QVERIFY(tool->usesModel());
        QVERIFY(tool->hoverPreview().empty());

        // Another tool: the preview goes with Smart Click.
        QTest::mouseMove(editor->canvas(), screenOf({20, 25}));
        QTRY_VERIFY(!tool->hoverPreview().empty());
        selectTool(*editor, "brush");
        QVERIFY(tool->hoverPreview().empty());
    }

    // Issue 50, section 4: Smart Click's status line fits the status bar (it was cut off at
    // "…show predictio"); the tool's tooltip says the rest.
    void smartClickStatusIsOneShortLine()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);
        selectTool(*editor, "smartclick");
        QVERIFY(!status.isEmpty());
        const QString grabCut = status.last().first().toString();
        QVERIFY2(grabCut.contains(QStringLiteral("GrabCut")) && grabCut.size() <= 100, qPrintable(grabCut));
        const cv::Mat classes(64, 64, CV_8UC1, cv::Scalar(0)), confidence(64, 64, CV_8UC1, cv::Scalar(200));
        QVERIFY(editor->setPrediction(0, classes, confidence, confidence, smartClickScores()));
        QTRY_VERIFY(status.last().first().toString().contains(QStringLiteral("Shift+click")));
        QVERIFY2(status.last().first().toString().size() <= 100, qPrintable(status.last().first().toString()));
    }

    // Issue 50, section 4: the prediction row says what is true of the model ("Model: Prediction
    // off" was shown while hover and Smart Click used the prediction), and the heat map's legend
    // is there with the confidence layer only (it stayed after switching to Errors).
    void predictionRowSaysWhatIsTrue()
    {
        EditorTestProject test;
        auto editor = makeEditor(test);
        editor->resize(1400, editor->height());  // the whole row on screen, none of it behind "»"
        QVERIFY(editor->openImage(0));
        auto* bar = editor->findChild<ui::editor::PredictionBar*>(QStringLiteral("predictionBar"));
        QVERIFY(bar);
        QVERIFY2(bar->stateText().contains(QStringLiteral("no prediction")), qPrintable(bar->stateText()));
        const cv::Mat classes(64, 64, CV_8UC1, cv::Scalar(0)), confidence(64, 64, CV_8UC1, cv::Scalar(200));
        QVERIFY(editor->setPrediction(0, classes, confidence, confidence));
        QCOMPARE(bar->view(), ui::editor::PredictionLayer::View::Off);
        QCOMPARE(bar->stateText(), QStringLiteral("Model: ready"));
        auto* layer = bar->findChild<QComboBox*>();
        QVERIFY(layer);
        QCOMPARE(layer->currentText(), QStringLiteral("Layer hidden"));

        auto* legend = bar->findChild<QLabel*>(QStringLiteral("predictionLegend"));
        QVERIFY(legend);
        QVERIFY(!bar->isLegendShown());
        bar->setView(ui::editor::PredictionLayer::View::Confidence);
        QVERIFY(bar->isLegendShown());
        QTRY_VERIFY(legend->isVisible());
        bar->setView(ui::editor::PredictionLayer::View::Errors);
        QVERIFY(!bar->isLegendShown());
        editor->resize(1300, editor->height());  // the row is laid out again
        QApplication::processEvents();
        QVERIFY(!legend->isVisible());

        QVERIFY(editor->openImage(1));
        QVERIFY2(bar->stateText().contains(QStringLiteral("no prediction")), qPrintable(bar->stateText()));
    }

    // The prediction row's layer, opacity and accept threshold were back at "Layer hidden", 60 %
    // and 0 % after every start: they are a person's way of working, and kept.
    void predictionRowKeepsItsChoicesAcrossStarts()
    {
        EditorTestProject test;
        {
            auto editor = makeEditor(test);
            auto* bar = editor->findChild<ui::editor::PredictionBar*>(QStringLiteral("predictionBar"));
            QVERIFY(bar);
            bar->findChild<QComboBox*>()->setCurrentIndex(2);  // as a person picks it
            bar->findChild<QSlider*>()->setValue(35);
            bar->findChild<QSpinBox*>()->setValue(40);
            QCOMPARE(bar->view(), ui::editor::PredictionLayer::View::Errors);
        }
        auto editor = makeEditor(test);
        auto* bar = editor->findChild<ui::editor::PredictionBar*>(QStringLiteral("predictionBar"));
        QCOMPARE(bar->view(), ui::editor::PredictionLayer::View::Errors);
        QCOMPARE(bar->opacity(), 0.35);
        QCOMPARE(bar->minConfidence(), (40 * 255 + 50) / 100);
        QCOMPARE(editor->canvas()->predictionView(), ui::editor::PredictionLayer::View::Errors);  // drawn so, too
        QCOMPARE(editor->canvas()->predictionOpacity(), 0.35);
    }

    // The brush's size and shape, the wand's tolerance and the superpixels' size came back as the
    // defaults at every start; the current class (a project's) does not carry over.
    void toolSettingsAreKeptAcrossStarts()
    {
        EditorTestProject test;
        {
            auto editor = makeEditor(test);
            editor->toolSettings()->setBrushSize(42);
            editor->toolSettings()->setBrushShape(paint::BrushShape::Square);
            editor->toolSettings()->setTolerance(60);
            editor->toolSettings()->setSuperpixelSize(40);
            editor->toolSettings()->setCurrentClass(2);
        }
        auto editor = makeEditor(test);
        QCOMPARE(editor->toolSettings()->brushSize(), 42);
        QCOMPARE(editor->toolSettings()->brushShape(), paint::BrushShape::Square);
        QCOMPARE(editor->toolSettings()->tolerance(), 60);
        QCOMPARE(editor->toolSettings()->superpixelSize(), 40);
        QCOMPARE(editor->toolSettings()->currentClass(), 0);
    }

    // Issue 50, section 4: CamVid's 11th class (Bicyclist) had no key and its row was cut off at
    // the first start: Shift+1 selects it, the Key column says so, and the classes panel at its
    // smallest height (a dock gives it no less) shows all 11 rows.
    void everyClassOfAnElevenClassSchemaHasAKeyAndARow()
    {
        EditorTestProject test(data::ClassSchema::camVid());
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(0));
        ui::editor::ClassesPanel* panel = editor->classesPanel();
        QCOMPARE(panel->table()->rowCount(), 11);
        constexpr int kKeyColumn = 2;
        QCOMPARE(panel->table()->item(panel->rowOf(10), kKeyColumn)->text(), QStringLiteral("Shift+1"));
        QCOMPARE(panel->table()->item(panel->rowOf(9), kKeyColumn)->text(), QStringLiteral("0"));
        QCOMPARE(panel->table()->item(panel->rowOf(0), kKeyColumn)->text(), QStringLiteral("1"));
        editor->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(editor.get()));
        editor->canvas()->setFocus();
        QTest::keyClick(editor->canvas(), Qt::Key_1, Qt::ShiftModifier);
        QCOMPARE(editor->toolSettings()->currentClass(), 10);
        QTest::keyClick(editor->canvas(), Qt::Key_0);
        QCOMPARE(editor->toolSettings()->currentClass(), 9);
        QTest::keyClick(editor->canvas(), Qt::Key_2, Qt::ShiftModifier);  // no 12th class: nothing
        QCOMPARE(editor->toolSettings()->currentClass(), 9);

        ui::editor::ToolSettings settings;
        ui::editor::ClassesPanel alone(&settings);
        alone.setSchema(data::ClassSchema::camVid());
        alone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&alone));
        alone.resize(360, alone.minimumSizeHint().height());
        QTableWidget* table = alone.table();
        QTRY_COMPARE(alone.height(), alone.minimumSizeHint().height());
        QApplication::processEvents();
        const QRect last = table->visualItemRect(table->item(10, 1));
        QVERIFY2(table->viewport()->rect().contains(last),
                 qPrintable(QStringLiteral("row 11 at %1..%2, the list %3 high")
                                .arg(last.top()).arg(last.bottom()).arg(table->viewport()->height())));
    }

    // Issue 50, section 4: a wider dock pushed Smart Click into the tool bar's "»" overflow: the
    // editor is never narrower than its tools.
    void everyToolStaysOnScreenWhenTheEditorIsNarrow()
    {
        ui::editor::LabelEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.resize(200, 400);
        QApplication::processEvents();
        QToolBar* tools = editor.toolBars().first();
        QVERIFY2(tools->width() >= tools->sizeHint().width(),
                 qPrintable(QStringLiteral("tools %1 px wide, need %2").arg(tools->width()).arg(tools->sizeHint().width())));
        const auto hiddenTool = [&]() -> QString {
            for (QAction* action : editor.toolActions())
                if (QWidget* button = tools->widgetForAction(action); !button || !button->isVisible())
                    return action->text();
            return {};
        };
        QTRY_COMPARE(hiddenTool(), QString());
    }

    // Issue 50, section 3: the tools and view actions are icons, as in Krita, GIMP and CVAT
    // (Breeze, embedded: a null pixmap means the resource or Qt Svg's icon engine is missing), no
    // two alike, each tooltip naming the action and its key, then what a tool does.
    void toolsAndViewActionsAreIconsThatSayTheirNameAndKey()
    {
        ui::editor::LabelEditor editor;
        QToolBar* tools = editor.toolBars().first();
        QCOMPARE(tools->toolButtonStyle(), Qt::ToolButtonIconOnly);
        QList<QAction*> onTheBar;
        for (QAction* action : tools->actions())
            if (!action->isSeparator())
                onTheBar << action;
        QVERIFY(onTheBar == editor.toolActions());
        QCOMPARE(onTheBar.size(), 10);
        QList<QImage> looks;
        for (QAction* action : onTheBar + editor.viewActions()) {
            const QString name = action->text().remove(u'&');
            QVERIFY2(!action->icon().isNull(), qPrintable(name + QStringLiteral(" has no icon")));
            const QImage look = action->icon().pixmap(22, 22).toImage();
            QVERIFY2(!look.isNull(), qPrintable(name + QStringLiteral("'s icon does not render (no Qt Svg?)")));
            QVERIFY2(!looks.contains(look), qPrintable(name + QStringLiteral(" looks like another action")));
            looks << look;
            const QString tip = action->toolTip();
            QStringList keys;
            for (const QKeySequence& key : action->shortcuts())
                keys << key.toString(QKeySequence::NativeText);
            QVERIFY2(!keys.isEmpty(), qPrintable(name));  // every tool and view action has one
            QVERIFY2(tip.section(u'\n', 0, 0) == QStringLiteral("%1 (%2)").arg(name, keys.join(QStringLiteral(", "))),
                     qPrintable(tip));
        }
        for (QAction* tool : editor.toolActions())
            QVERIFY2(tool->toolTip().section(u'\n', 1).size() > 20, qPrintable(tool->toolTip()));
        QCOMPARE(editor.toolActions().first()->toolTip().section(u'\n', 0, 0), QStringLiteral("Brush (B)"));
    }

    // Issue 50, section 3: the icons follow the palette (Breeze's ink becomes the window text), so
    // a dark theme shows light icons instead of dark ones on a dark bar; disabled ones are dimmer.
    void iconsAreDrawnInThePalettesTextColour()
    {
        const auto inkOf = [](const QIcon& icon, QIcon::Mode mode) {
            const QImage look = icon.pixmap(QSize(22, 22), mode).toImage().convertToFormat(QImage::Format_ARGB32);
            double lightness = 0, weight = 0;  // of the drawn pixels, by their coverage
            for (int y = 0; y < look.height(); ++y)
                for (int x = 0; x < look.width(); ++x) {
                    const QColor pixel = look.pixelColor(x, y);
                    lightness += pixel.alphaF() * pixel.lightnessF();
                    weight += pixel.alphaF();
                }
            return weight > 0 ? lightness / weight : -1.0;
        };
        const QPalette before = QApplication::palette();
        QPalette dark = before;
        dark.setColor(QPalette::Active, QPalette::WindowText, QColor(0xfc, 0xfc, 0xfc));
        dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x60, 0x60, 0x60));
        dark.setColor(QPalette::Window, QColor(0x2a, 0x2e, 0x32));
        QPalette light = before;
        light.setColor(QPalette::Active, QPalette::WindowText, QColor(0x23, 0x26, 0x29));
        const QIcon brush = ui::icons::icon(QStringLiteral("draw-brush"));
        QApplication::setPalette(light);
        const double onLight = inkOf(brush, QIcon::Normal);
        QApplication::setPalette(dark);
        const double onDark = inkOf(brush, QIcon::Normal);
        const double disabledOnDark = inkOf(brush, QIcon::Disabled);
        QApplication::setPalette(before);
        QVERIFY2(onLight >= 0 && onLight < 0.25, qPrintable(QString::number(onLight)));  // Breeze's dark ink
        QVERIFY2(onDark > 0.9, qPrintable(QString::number(onDark)));                     // the light text
        QVERIFY2(disabledOnDark > 0.3 && disabledOnDark < onDark, qPrintable(QString::number(disabledOnDark)));
        QVERIFY(ui::icons::icon(QStringLiteral("no-such-icon")).isNull());
    }
};

QTEST_MAIN(TestLabelEditor)
#include "test_LabelEditor.moc"
