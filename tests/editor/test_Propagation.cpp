#include "editor/FramePropagation.h"
#include "../paint/StreetScene.h"
#include "editor/LabelCanvas.h"
#include "editor/LabelDocument.h"
#include "editor/LabelEditor.h"
#include "editor/LabelingTips.h"
#include "editor/ToolSettings.h"
#include "editor/ToolSettingsStore.h"

#include "data/labels/ClassSchema.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelClass.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "document/WorkerPool.h"
#include "paint/RegionMask.h"
#include "paint/WriteGuard.h"

#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QUndoGroup>
#include <QUndoStack>
#include <QtTest>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace segstudio;

namespace {

constexpr std::uint8_t kUnlabelled = data::kUnlabelled;
const cv::Size kFrame(320, 240);
// Between two frames the whole scene moves this far, right and down: each frame's left 7 columns
// and top 3 rows show what the frame before never saw.
constexpr int kDx = 7;
constexpr int kDy = 3;
constexpr int kWaitMs = 30000;  // the flow takes milliseconds; a loaded 2-core machine, more

using painttest::Scene;
using painttest::makeScene;
using painttest::nearlyRight;
using painttest::awayFromBoundaries;

data::ClassSchema sixClasses()
{
    return data::ClassSchema({{0, "street", {90, 90, 90}, ""},
                              {1, "car", {220, 40, 40}, ""},
                              {2, "tree", {40, 200, 60}, ""},
                              {3, "sky", {50, 60, 230}, ""},
                              {4, "sign", {230, 210, 40}, ""},
                              {5, "pole", {200, 60, 200}, ""}});
}

// Three frames of the moving scene named as CamVid's are (seq_00001.png …), the first labelled
// (its map on disk, status Labelled), and an image that is no frame (overview.png).
struct SequenceProject {
    QTemporaryDir dir;
    std::unique_ptr<document::ProjectDocument> document;
    std::vector<cv::Mat> truth;  // each frame's true labels
    Scene scene = makeScene(kFrame + cv::Size(32, 32));

    std::filesystem::path root() const { return dir.path().toStdString(); }

    // Frame k (0-based) of the scene: the first at (16, 16), each next one kDx, kDy further left
    // and up, so that its content lies kDx, kDy further right and down.
    cv::Rect windowOf(int k) const { return cv::Rect({16 - k * kDx, 16 - k * kDy}, kFrame); }

    // seq_0000<number>.png showing frame k's window of the scene.
    std::filesystem::path writeFrame(int number, int k) const
    {
        const std::filesystem::path path = root() / ("seq_0000" + std::to_string(number) + ".png");
        data::writeImageRgb(path, scene.rgb(windowOf(k)).clone());
        return path;
    }

    SequenceProject()
    {
        data::Project made(root() / "sequence.segstudio", sixClasses());
        for (int k = 0; k < 3; ++k) {
            made.addImage(writeFrame(k + 1, k));
            truth.push_back(scene.labels(windowOf(k)).clone());
        }
        const std::filesystem::path overview = root() / "overview.png";
        data::writeImageRgb(overview, scene.rgb(windowOf(1)).clone());
        made.addImage(overview);
        std::filesystem::create_directories(made.labelRoot());
        data::writeLabelMap(made.labelMapPath(0), truth[0], made.schema());
        made.setStatus(0, data::LabelStatus::Labelled);
        made.save();
        document = std::make_unique<document::ProjectDocument>(std::move(made));
    }
};


// Whether (x, y) lies in the strip that came into view, or within a pixel of it.
bool nearTheNewStrip(int x, int y) { return x <= kDx || y <= kDy; }


QAction* actionNamed(const QList<QAction*>& actions, const char* name)
{
    for (QAction* action : actions)
        if (action->objectName() == QLatin1String(name))
            return action;
    return nullptr;
}

}  // namespace

// Issue 51 in the editor: Alt+Page Up / Alt+Page Down step through the frames of the open image's
// sequence, and Propagate from Previous / Next Frame carries the nearest labelled frame's labels
// onto the open one, in the background, as one undoable edit that respects the locks.
class TestPropagation : public QObject {
    Q_OBJECT

private:
    static std::unique_ptr<ui::editor::LabelEditor> makeEditor(SequenceProject& test)
    {
        auto editor = std::make_unique<ui::editor::LabelEditor>();
        editor->setRecoveryPrompt([](const QStringList&) { return false; });
        editor->setDocument(test.document.get());
        editor->canvas()->setFixedSize(320, 240);
        editor->show();
        return editor;
    }

    static void propagate(ui::editor::LabelEditor& editor, const char* which)
    {
        QAction* action = actionNamed(editor.propagateActions(), which);
        QVERIFY(action);
        QVERIFY(action->isEnabled());
        action->trigger();
        QVERIFY(editor.isPropagating());
        QVERIFY(editor.canvas()->isEditable());  // the user may go on labelling meanwhile
        QTRY_VERIFY_WITH_TIMEOUT(!editor.isPropagating(), kWaitMs);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SegStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_Propagation"));
        QSettings().setValue(QLatin1String(ui::editor::LabelingTips::kSeenKey), true);  // no card over the canvas
        ui::editor::ToolSettingsStore::forget();  // the brush and tolerance as they are by default
    }

    // The keys and the shortcut list: the actions carry their keys and say them in their tooltips.
    void theActionsHaveTheirKeys()
    {
        ui::editor::LabelEditor editor;
        const auto keyOf = [](QAction* action) { return action ? action->shortcut() : QKeySequence(); };
        QCOMPARE(keyOf(actionNamed(editor.frameActions(), "frame.previous")), QKeySequence(Qt::ALT | Qt::Key_PageUp));
        QCOMPARE(keyOf(actionNamed(editor.frameActions(), "frame.next")), QKeySequence(Qt::ALT | Qt::Key_PageDown));
        QCOMPARE(keyOf(actionNamed(editor.propagateActions(), "frame.propagatePrevious")),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
        QCOMPARE(keyOf(actionNamed(editor.propagateActions(), "frame.propagateNext")),
                 QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P));
        for (QAction* action : editor.frameActions() + editor.propagateActions())
            QVERIFY2(action->toolTip().contains(action->shortcut().toString()), qPrintable(action->toolTip()));
    }

    // Alt+Page Up / Alt+Page Down open the frame before / after in the sequence; the ends and an
    // image that is no frame say so and stay; an added frame is found at once.
    void keysStepThroughTheFrames()
    {
        SequenceProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(1));  // frame 2
        editor->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(editor.get()));  // shortcuts fire only in the active window
        editor->canvas()->setFocus();
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);

        QTest::keyClick(editor->canvas(), Qt::Key_PageUp, Qt::AltModifier);
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
        QTRY_VERIFY(!editor->isOpening());
        QTest::keyClick(editor->canvas(), Qt::Key_PageUp, Qt::AltModifier);  // the first frame: stays
        QVERIFY(!editor->isOpening());
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("first frame")),
                 qPrintable(status.last().first().toString()));
        QTest::keyClick(editor->canvas(), Qt::Key_PageDown, Qt::AltModifier);
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(1));
        QTRY_VERIFY(!editor->isOpening());
        QCOMPARE(editor->document()->imageKey(), std::string("seq_00002.png"));

        // The last frame, until a fourth one is added.
        QTest::keyClick(editor->canvas(), Qt::Key_PageDown, Qt::AltModifier);
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(2));
        QTRY_VERIFY(!editor->isOpening());
        QTest::keyClick(editor->canvas(), Qt::Key_PageDown, Qt::AltModifier);
        QVERIFY(!editor->isOpening());
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("last frame")),
                 qPrintable(status.last().first().toString()));
        QCOMPARE(test.document->addImages({test.writeFrame(4, 2)}, data::Split::Unassigned), std::size_t(1));
        QTest::keyClick(editor->canvas(), Qt::Key_PageDown, Qt::AltModifier);
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(4));
        QTRY_VERIFY(!editor->isOpening());

        // An image alone: nothing happens, and the status says why.
        QVERIFY(editor->openImage(3));
        QTest::keyClick(editor->canvas(), Qt::Key_PageDown, Qt::AltModifier);
        QVERIFY(!editor->isOpening());
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(3));
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("frame alone")),
                 qPrintable(status.last().first().toString()));
        actionNamed(editor->propagateActions(), "frame.propagatePrevious")->trigger();
        QVERIFY(!editor->isPropagating());
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("frame alone")),
                 qPrintable(status.last().first().toString()));
    }

    // Frame 2 takes frame 1's labels where they moved to, within a pixel; the strip that came into
    // view stays unlabelled; one Undo gives back the exact frame.
    void propagateFromThePreviousFrame()
    {
        SequenceProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(1));
        ui::editor::LabelDocument* doc = editor->document();
        const cv::Mat before = doc->labels().clone();
        QCOMPARE(cv::countNonZero(before != kUnlabelled), 0);
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);

        propagate(*editor, "frame.propagatePrevious");
        QCOMPARE(doc->undoStack()->count(), 1);
        QVERIFY(editor->isModified());
        const cv::Mat& labels = doc->labels();
        const cv::Mat& truth = test.truth[1];
        int wrong = 0, missed = 0, inside = 0;
        for (int y = 0; y < labels.rows; ++y)
            for (int x = 0; x < labels.cols; ++x) {
                const std::uint8_t label = labels.at<std::uint8_t>(y, x);
                if (label != kUnlabelled && !nearlyRight(truth, x, y, label))
                    ++wrong;
                if (nearTheNewStrip(x, y) || !awayFromBoundaries(truth, x, y))
                    continue;
                ++inside;
                if (label == kUnlabelled)
                    ++missed;
                else if (label != truth.at<std::uint8_t>(y, x))
                    ++wrong;
            }
        QCOMPARE(wrong, 0);
        QVERIFY2(missed * 100 <= inside, qPrintable(QStringLiteral("%1 of %2 not carried").arg(missed).arg(inside)));
        QCOMPARE(cv::countNonZero(labels(cv::Rect(0, 0, kDx, kFrame.height)) != kUnlabelled), 0);
        QCOMPARE(cv::countNonZero(labels(cv::Rect(0, 0, kFrame.width, kDy)) != kUnlabelled), 0);
        const QString said = status.last().first().toString();
        QVERIFY2(said.startsWith(QStringLiteral("Carried ")) && said.contains(QStringLiteral("seq_00001")), qPrintable(said));
        QVERIFY(editor->canvas()->reviewLayer().isNull());  // no prediction: nothing to review

        editor->undoGroup()->undo();
        QCOMPARE(cv::countNonZero(doc->labels() != before), 0);  // to the exact bytes
        QVERIFY(!editor->isModified());
    }

    // From the next frame too: frame 1 unlabelled, frame 2 labelled (and saved by the editor),
    // open frame 1.
    void propagateFromTheNextFrame()
    {
        SequenceProject test;
        std::filesystem::remove(test.document->project().labelMapPath(0));
        QVERIFY(test.document->setStatus({0}, data::LabelStatus::Unlabelled));
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(1));
        editor->document()->replaceLabels(test.truth[1], QStringLiteral("Label"));
        QVERIFY(editor->openImage(2));  // saves frame 2, which is now labelled (in progress)
        QVERIFY(test.document->project().entry(1).status == data::LabelStatus::InProgress);
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);
        actionNamed(editor->propagateActions(), "frame.propagateNext")->trigger();  // frame 3: none after it
        QVERIFY(!editor->isPropagating());
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("No frame after")),
                 qPrintable(status.last().first().toString()));
        QVERIFY(editor->openImage(0));
        propagate(*editor, "frame.propagateNext");
        QCOMPARE(editor->document()->undoStack()->count(), 1);
        // Frame 1's content lies kDx, kDy up and left of frame 2's: its right and bottom edges came
        // into view (less a pixel, which may take the label beside it), and everything else is
        // frame 2's labels moved back.
        const cv::Mat& labels = editor->document()->labels();
        const cv::Rect right(kFrame.width - kDx + 1, 0, kDx - 1, kFrame.height);
        const cv::Rect bottom(0, kFrame.height - kDy + 1, kFrame.width, kDy - 1);
        QCOMPARE(cv::countNonZero(labels(right) != kUnlabelled), 0);
        QCOMPARE(cv::countNonZero(labels(bottom) != kUnlabelled), 0);
        int wrong = 0;
        for (int y = 0; y < labels.rows; ++y)
            for (int x = 0; x < labels.cols; ++x)
                if (const std::uint8_t label = labels.at<std::uint8_t>(y, x);
                    label != kUnlabelled && !nearlyRight(test.truth[0], x, y, label))
                    ++wrong;
        QCOMPARE(wrong, 0);
        QVERIFY(cv::countNonZero(labels != kUnlabelled) > kFrame.area() * 9 / 10);
    }

    // "Only unlabelled pixels": what the user painted first keeps its class; Undo takes back the
    // propagation alone.
    void theLocksAreKept()
    {
        SequenceProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(1));
        ui::editor::LabelDocument* doc = editor->document();
        // Street in truth (frame 2's (20, 20) is the scene's (29, 33)); painted "pole".
        const cv::Rect painted(20, 20, 30, 20);
        QCOMPARE(cv::countNonZero(test.truth[1](painted) != 0), 0);
        cv::Mat mask(doc->size(), CV_8UC1, cv::Scalar(0));
        mask(painted).setTo(255);
        doc->paintRegion(paint::RegionMask::fromFullMask(mask), 5, paint::WriteGuard(), QStringLiteral("Paint"));
        const cv::Mat paintedLabels = doc->labels().clone();
        editor->toolSettings()->setOnlyUnlabelled(true);

        propagate(*editor, "frame.propagatePrevious");
        QCOMPARE(doc->undoStack()->count(), 2);
        QCOMPARE(cv::countNonZero(doc->labels()(painted) != 5), 0);
        QVERIFY(cv::countNonZero(doc->labels() != kUnlabelled) > kFrame.area() * 9 / 10);  // the rest carried
        editor->undoGroup()->undo();
        QCOMPARE(cv::countNonZero(doc->labels() != paintedLabels), 0);
    }

    // With the model's prediction of the frame: pixels where a sure prediction contradicts the
    // carried label are marked (a layer on the canvas, and the share in the status line), the
    // strip the flow cannot reach takes the sure prediction; Undo takes the marks away too.
    void aSurePredictionThatDisagreesIsMarked()
    {
        SequenceProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(1));
        cv::Mat classes = test.truth[1].clone();
        const cv::Rect contradicted(150, 30, 20, 20);  // street in truth; the model says "sign"
        QCOMPARE(cv::countNonZero(test.truth[1](contradicted) != 0), 0);
        classes(contradicted).setTo(4);
        const cv::Mat confidence(kFrame, CV_8UC1, cv::Scalar(250)), entropy(kFrame, CV_8UC1, cv::Scalar(5));
        QVERIFY(editor->setPrediction(1, classes, confidence, entropy));
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);

        propagate(*editor, "frame.propagatePrevious");
        const cv::Mat& labels = editor->document()->labels();
        const QImage& review = editor->canvas()->reviewLayer();
        QVERIFY(!review.isNull());
        // There the flow carries the user's street, marked; a pixel it could not carry would take
        // the sure prediction instead, unmarked.
        int marked = 0;
        for (int y = contradicted.y; y < contradicted.br().y; ++y)
            for (int x = contradicted.x; x < contradicted.br().x; ++x) {
                const int label = labels.at<std::uint8_t>(y, x);
                QVERIFY(label == 0 || label == 4);
                if (label == 0) {
                    QCOMPARE(qAlpha(review.pixel(x, y)), qAlpha(ui::editor::FramePropagation::kReviewColour));
                    ++marked;
                } else {
                    QCOMPARE(qAlpha(review.pixel(x, y)), 0);
                }
            }
        QVERIFY(marked * 10 >= contradicted.area() * 9);
        QCOMPARE(qAlpha(review.pixel(100, 100)), 0);  // car, and the model agrees
        QCOMPARE(cv::countNonZero(labels(cv::Rect(0, 0, kDx, kFrame.height)) != test.truth[1](cv::Rect(0, 0, kDx, kFrame.height))), 0);
        const QString said = status.last().first().toString();
        QVERIFY2(said.contains(QStringLiteral("disagree with the model (marked)")), qPrintable(said));

        editor->undoGroup()->undo();
        QVERIFY(editor->canvas()->reviewLayer().isNull());
        QCOMPARE(cv::countNonZero(labels != kUnlabelled), 0);
    }

    // Issue 61.2: a model wrong the same way on every frame (it calls the street "car") is first
    // corrected by the labelled frame's labels, read with the model's scores of that frame from the
    // chosen checkpoint's prediction cache: the strip the flow cannot carry takes "street", not the
    // model's "car". With no run chosen, or the source frame never predicted by it, the model's own
    // answer fills it, as before.
    void theModelIsCorrectedByTheLabelledFrame_data()
    {
        QTest::addColumn<bool>("runChosen");
        QTest::addColumn<bool>("sourcePredicted");
        QTest::newRow("corrected") << true << true;
        QTest::newRow("the source frame never predicted") << true << false;
        QTest::newRow("no run chosen") << false << true;
    }

    void theModelIsCorrectedByTheLabelledFrame()
    {
        QFETCH(bool, runChosen);
        QFETCH(bool, sourcePredicted);
        SequenceProject test;
        const data::Project& project = test.document->project();
        const std::filesystem::path runDir = test.root() / "runs" / "r1";
        const std::filesystem::path checkpoint = runDir / "checkpoints" / "best.pt";
        std::filesystem::create_directories(checkpoint.parent_path());
        std::ofstream(checkpoint) << "weights";  // a file: only its cache of predictions counts
        const data::PredictionCache cache(runDir, checkpoint);
        cache.prepare();
        // The model sees street as car, and every object right.
        const auto modelOf = [](const cv::Mat& truth) {
            const auto model = painttest::wrongModel(truth, 0, 1, 6);
            return data::PredictionCache::Entry{model.classes, model.confidence, model.entropy, model.scores};
        };
        if (sourcePredicted)
            data::PredictionCache::writeEntry(cache.folder(), data::PredictionCache::keyOf(project, 0),
                                              modelOf(test.truth[0]), project.schema());
        auto editor = makeEditor(test);
        if (runChosen)
            editor->setPredictionCheckpoint(QString::fromStdString(runDir.string()), QString::fromStdString(checkpoint.string()));
        QVERIFY(editor->openImage(1));
        const auto model = modelOf(test.truth[1]);
        QVERIFY(editor->setPrediction(1, model.classes, model.confidence, model.entropy, model.scores));
        QSignalSpy status(editor.get(), &ui::editor::LabelEditor::statusMessage);

        propagate(*editor, "frame.propagatePrevious");
        const cv::Mat& labels = editor->document()->labels();
        const cv::Rect strip(0, 0, kDx, kFrame.height);  // came into view: the flow carries nothing there
        QCOMPARE(cv::countNonZero(test.truth[1](strip) != 0), 0);
        const int street = cv::countNonZero(labels(strip) == 0), car = cv::countNonZero(labels(strip) == 1);
        const QString said = status.last().first().toString();
        if (runChosen && sourcePredicted) {
            QVERIFY2(street >= strip.area() * 95 / 100, qPrintable(QStringLiteral("%1 street, %2 car").arg(street).arg(car)));
            QVERIFY2(said.contains(QStringLiteral("from seq_00001; the model, corrected by its labels, filled")), qPrintable(said));
        } else {
            QCOMPARE(car, strip.area());
            QVERIFY2(!said.contains(QStringLiteral("corrected")), qPrintable(said));
        }
    }

    // Another image while the flow runs: the result is dropped; neither frame changes.
    void switchingImagesCancels()
    {
        SequenceProject test;
        auto editor = makeEditor(test);
        QVERIFY(editor->openImage(1));
        QSignalSpy finished(editor->findChild<ui::editor::FramePropagation*>(),
                            &ui::editor::FramePropagation::finished);
        actionNamed(editor->propagateActions(), "frame.propagatePrevious")->trigger();
        QVERIFY(editor->isPropagating());
        QVERIFY(editor->requestImage(2));
        QVERIFY(!editor->isPropagating());
        QTRY_VERIFY(!editor->isOpening());
        QVERIFY(document::workerPool()->waitForDone(kWaitMs));  // the job ends, unseen
        QCoreApplication::processEvents();
        QCOMPARE(finished.count(), 0);
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(2));
        QCOMPARE(editor->document()->undoStack()->count(), 0);
        QCOMPARE(cv::countNonZero(editor->document()->labels() != kUnlabelled), 0);
        QVERIFY(!std::filesystem::exists(test.document->project().labelMapPath(1)));  // frame 2 was never changed
        QVERIFY(editor->openImage(1));
        QCOMPARE(editor->document()->undoStack()->count(), 0);
        QCOMPARE(cv::countNonZero(editor->document()->labels() != kUnlabelled), 0);
    }
};

QTEST_MAIN(TestPropagation)
#include "test_Propagation.moc"
