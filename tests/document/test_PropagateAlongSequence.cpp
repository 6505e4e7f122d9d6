#include "../paint/StreetScene.h"
#include "document/ProjectDocument.h"

#include "data/labels/ClassSchema.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelClass.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "data/project/Project.h"
#include "paint/PropagationBatch.h"
#include "run/AtomicFile.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace segstudio;
using document::ProjectDocument;
namespace fs = std::filesystem;

namespace {

constexpr std::uint8_t kUnlabelled = data::kUnlabelled;
const cv::Size kFrame(320, 240);
// Between window 0 and window 1 the whole scene moves this far, right and down: window 1's left
// 7 columns and top 3 rows show what window 0 never saw (as in tests/editor/test_Propagation).
constexpr int kDx = 7;
constexpr int kDy = 3;
constexpr int kWaitMs = 60000;  // the flow takes milliseconds a frame; a loaded 2-core machine, more

using painttest::makeScene;
using painttest::nearlyRight;
using painttest::awayFromBoundaries;
using painttest::Scene;

data::ClassSchema sixClasses()
{
    return data::ClassSchema({{0, "street", {90, 90, 90}, ""},
                              {1, "car", {220, 40, 40}, ""},
                              {2, "tree", {40, 200, 60}, ""},
                              {3, "sky", {50, 60, 230}, ""},
                              {4, "sign", {230, 210, 40}, ""},
                              {5, "pole", {200, 60, 200}, ""}});
}

// Frame 3's labels, "by hand, differently": every class swapped for another (0<->5, 1<->4, 2<->3),
// so labels carried from frame 3 cannot be told apart from those carried from frame 1 by chance.
cv::Mat relabelled(const cv::Mat& labels)
{
    cv::Mat swapped = labels.clone();
    for (auto it = swapped.begin<std::uint8_t>(); it != swapped.end<std::uint8_t>(); ++it)
        if (*it != kUnlabelled)
            *it = std::uint8_t(5 - *it);
    return swapped;
}

// A sequence of four frames seq_00001..4.png of the moving scene: frames 1 and 3 show window 0,
// frames 2 and 4 window 1 (the scene moved kDx, kDy between them). Frame 1 is labelled with the
// true labels, frame 3 by hand differently (relabelled); frames 2 and 4 are unlabelled. Beside it,
// with `others`: a two-frame sequence cam_00001..2.png with no labels at all, and an image that is
// no frame (lone.png), both unlabelled.
struct SequenceProject {
    QTemporaryDir dir;
    std::unique_ptr<ProjectDocument> document;
    Scene scene = makeScene(kFrame + cv::Size(32, 32));
    std::vector<cv::Mat> truth;  // each frame's true labels, as its labeller sees them

    fs::path root() const { return dir.path().toStdString(); }
    cv::Rect windowOf(int k) const { return cv::Rect({16 - k * kDx, 16 - k * kDy}, kFrame); }

    fs::path writeImage(const std::string& name, int window) const
    {
        const fs::path path = root() / name;
        data::writeImageRgb(path, scene.rgb(windowOf(window)).clone());
        return path;
    }

    explicit SequenceProject(bool others = true)
    {
        data::Project made(root() / "sequence.segstudio", sixClasses());
        for (int n = 1; n <= 4; ++n) {
            const int window = (n - 1) % 2;
            made.addImage(writeImage("seq_0000" + std::to_string(n) + ".png", window));
            const cv::Mat labels = scene.labels(windowOf(window)).clone();
            truth.push_back(n <= 2 ? labels : relabelled(labels));
        }
        if (others) {
            made.addImage(writeImage("cam_00001.png", 0));
            made.addImage(writeImage("cam_00002.png", 1));
            made.addImage(writeImage("lone.png", 1));
        }
        fs::create_directories(made.labelRoot());
        for (const std::size_t index : {std::size_t(0), std::size_t(2)}) {
            data::writeLabelMap(made.labelMapPath(index), truth[index], made.schema());
            made.setStatus(index, data::LabelStatus::Labelled);
        }
        made.save();
        document = std::make_unique<ProjectDocument>(std::move(made));
    }

    const data::Project& project() const { return document->project(); }
    // A run folder with a checkpoint file (no real weights: only its cache of predictions counts).
    std::pair<fs::path, fs::path> fakeRun() const
    {
        const fs::path runDir = root() / "runs" / "r1";
        const fs::path checkpoint = runDir / "checkpoints" / "best.pt";
        fs::create_directories(checkpoint.parent_path());
        run::writeFileAtomically(checkpoint, std::string("weights"));
        return {runDir, checkpoint};
    }
    fs::path labelMap(std::size_t index) const { return project().labelMapPath(index); }
    // The bytes of a frame's label map; empty when it has none.
    std::string bytesOf(std::size_t index) const
    {
        return fs::exists(labelMap(index)) ? run::readFile(labelMap(index)) : std::string();
    }
    std::vector<std::size_t> everyImage() const
    {
        std::vector<std::size_t> all(project().size());
        for (std::size_t i = 0; i < all.size(); ++i)
            all[i] = i;
        return all;
    }
    std::map<std::size_t, std::string> mapsNow() const
    {
        std::map<std::size_t, std::string> maps;
        for (std::size_t i = 0; i < project().size(); ++i)
            maps[i] = bytesOf(i);
        return maps;
    }
};


// Whether (x, y) lies in the strip that came into view, or within a pixel of it.
bool nearTheNewStrip(int x, int y) { return x <= kDx || y <= kDy; }


// Carried labels against the truth: none wrong by more than a pixel anywhere, and away from
// boundaries and the strip that came into view, at most 1 % left unlabelled and none wrong.
void checkCarried(const cv::Mat& labels, const cv::Mat& truth)
{
    QCOMPARE(labels.size(), truth.size());
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
}

}  // namespace

// Issue 51, item 3: Propagate Along the Sequence, for a whole sequence at once: every unlabelled
// frame right after a labelled one takes the labels of the frame before it, carried by optical
// flow, frame after frame, as one undoable document job that never writes a frame with labels.
class TestPropagateAlongSequence : public QObject {
    Q_OBJECT

private slots:
    // Frames 2 and 4 take the labels of frames 1 and 3 (each from the frame right before it, not
    // from frame 1 down the chain), within a pixel; frames 1 and 3 are not touched; the frames of
    // a sequence without labels and an image that is no frame are skipped and counted. One Undo
    // gives back the exact files and statuses; Redo the carried maps.
    void fillsEachUnlabelledFrameFromTheOneBefore()
    {
        SequenceProject test;
        ProjectDocument& doc = *test.document;
        const auto before = test.mapsNow();
        QSignalSpy said(&doc, &ProjectDocument::message);
        QSignalSpy replaced(&doc, &ProjectDocument::labelMapsReplaced);
        QSignalSpy progress(&doc, &ProjectDocument::jobProgress);

        QVERIFY(doc.propagateAlongSequence(test.everyImage(), {}, {}, 128));
        QVERIFY(doc.isBusy());
        QVERIFY(!doc.setSplit({0}, data::Split::Test));  // refused while the job runs
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        QVERIFY(progress.count() >= 2);
        QCOMPARE(doc.undoStack()->count(), 1);

        // Frames 1 and 3, labelled: the same bytes, the same status.
        QCOMPARE(test.bytesOf(0), before.at(0));
        QCOMPARE(test.bytesOf(2), before.at(2));
        QVERIFY(test.project().entry(0).status == data::LabelStatus::Labelled);
        QVERIFY(test.project().entry(2).status == data::LabelStatus::Labelled);
        // Frames 2 and 4: carried from 1 and from 3 (relabelled), in progress now.
        const data::ClassSchema& schema = test.project().schema();
        const cv::Mat frame2 = data::readLabelMap(test.labelMap(1), schema);
        const cv::Mat frame4 = data::readLabelMap(test.labelMap(3), schema);
        checkCarried(frame2, test.truth[1]);
        checkCarried(frame4, test.truth[3]);
        QVERIFY(cv::countNonZero(frame2 != kUnlabelled) > kFrame.area() * 9 / 10);
        QVERIFY(cv::countNonZero(frame4 != kUnlabelled) > kFrame.area() * 9 / 10);
        // Nothing could come into the strip that came into view.
        QCOMPARE(cv::countNonZero(frame2(cv::Rect(0, 0, kDx, kFrame.height)) != kUnlabelled), 0);
        QCOMPARE(cv::countNonZero(frame4(cv::Rect(0, 0, kFrame.width, kDy)) != kUnlabelled), 0);
        QVERIFY(test.project().entry(1).status == data::LabelStatus::InProgress);
        QVERIFY(test.project().entry(3).status == data::LabelStatus::InProgress);
        QVERIFY(data::Project::load(test.project().file()).entry(3).status == data::LabelStatus::InProgress);  // saved
        // No labelled frame before them: cam_00001, cam_00002 (not from an unlabelled one) and lone.
        for (const std::size_t skipped : {std::size_t(4), std::size_t(5), std::size_t(6)}) {
            QVERIFY(!fs::exists(test.labelMap(skipped)));
            QVERIFY(test.project().entry(skipped).status == data::LabelStatus::Unlabelled);
        }
        QVERIFY(!said.isEmpty());
        const QString message = said.last().at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("into 2 frame(s)")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("3 frame(s) with no labelled frame right before them")),
                 qPrintable(message));
        QVERIFY(!replaced.isEmpty());
        QCOMPARE(replaced.last().at(0).value<std::vector<std::size_t>>(), (std::vector<std::size_t> {1, 3}));
        const std::string after2 = test.bytesOf(1), after4 = test.bytesOf(3);

        // One Undo: frames 2 and 4 unlabelled again (they had no map), 1 and 3 as they were.
        doc.undoStack()->undo();
        QVERIFY(test.mapsNow() == before);
        QVERIFY(test.project().entry(1).status == data::LabelStatus::Unlabelled);
        QVERIFY(test.project().entry(3).status == data::LabelStatus::Unlabelled);
        QVERIFY(data::Project::load(test.project().file()).entry(1).status == data::LabelStatus::Unlabelled);
        doc.undoStack()->redo();
        QCOMPARE(test.bytesOf(1), after2);
        QCOMPARE(test.bytesOf(3), after4);
        QVERIFY(test.project().entry(1).status == data::LabelStatus::InProgress);
        // Labelled since: Undo leaves that frame's work as it is, and puts back the other.
        cv::Mat edited = data::readLabelMap(test.labelMap(3), schema);
        edited.at<std::uint8_t>(0, 0) = 1;
        data::writeLabelMap(test.labelMap(3), edited, schema);
        const std::string userBytes = test.bytesOf(3);
        doc.undoStack()->undo();
        QVERIFY(!fs::exists(test.labelMap(1)));
        QCOMPARE(test.bytesOf(3), userBytes);
        QVERIFY(test.project().entry(3).status == data::LabelStatus::InProgress);
    }

    // One image selected means its whole sequence; several, those frames.
    void theSelectionNamesTheFrames()
    {
        SequenceProject test;
        const data::Project& project = test.project();
        QCOMPARE(paint::PropagationBatch::framesFor(project, {2}), (std::vector<std::size_t> {0, 1, 2, 3}));
        QCOMPARE(paint::PropagationBatch::framesFor(project, {5}), (std::vector<std::size_t> {4, 5}));
        QCOMPARE(paint::PropagationBatch::framesFor(project, {6}), (std::vector<std::size_t> {6}));
        QCOMPARE(paint::PropagationBatch::framesFor(project, {3, 1, 3}), (std::vector<std::size_t> {1, 3}));
        QCOMPARE(paint::PropagationBatch::framesFor(project, {99}), std::vector<std::size_t>());

        // Only frame 4 asked for: frame 2 stays unlabelled, frame 4 still comes from frame 3.
        ProjectDocument& doc = *test.document;
        QVERIFY(doc.propagateAlongSequence({3}, {}, {}, 128));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        QVERIFY(!fs::exists(test.labelMap(1)));
        checkCarried(data::readLabelMap(test.labelMap(3), project.schema()), test.truth[3]);
    }

    // Asked again once frames 2 and 4 were carried, every frame has labels: nothing is written,
    // nothing pushed, and the message says why.
    void nothingToPropagateIsSaid()
    {
        SequenceProject test(/*others=*/false);
        ProjectDocument& doc = *test.document;
        QVERIFY(doc.propagateAlongSequence(test.everyImage(), {}, {}, 128));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        QCOMPARE(doc.undoStack()->count(), 1);
        const auto after = test.mapsNow();
        QSignalSpy said(&doc, &ProjectDocument::message);
        QVERIFY(doc.propagateAlongSequence(test.everyImage(), {}, {}, 128));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(test.mapsNow() == after);
        QVERIFY(!said.isEmpty());
        QVERIFY2(said.last().at(0).toString().startsWith(
                     QStringLiteral("Nothing to propagate; 4 frame(s) already have labels")),
                 qPrintable(said.last().at(0).toString()));
    }

    // With the model's prediction of frame 2, what the flow cannot carry (the strip that came into
    // view) takes the predicted class where the model is sure, as the editor's Propagate does.
    void aSurePredictionFillsWhatTheFlowCannotCarry()
    {
        SequenceProject test(/*others=*/false);
        const data::Project& project = test.project();
        const auto [runDir, checkpoint] = test.fakeRun();
        const data::PredictionCache cache(runDir, checkpoint);
        cache.prepare();
        const std::string key = data::PredictionCache::keyOf(project, 1);
        const cv::Mat sure(kFrame, CV_8UC1, cv::Scalar(250));
        data::writeLabelMap(cache.classesFile(key), test.truth[1], project.schema());
        data::writeImageGray(cache.confidenceFile(key), sure);
        data::writeImageGray(cache.entropyFile(key), sure);

        ProjectDocument& doc = *test.document;
        QSignalSpy said(&doc, &ProjectDocument::message);
        QVERIFY(doc.propagateAlongSequence({1}, runDir, checkpoint, 128));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        const cv::Mat frame2 = data::readLabelMap(test.labelMap(1), project.schema());
        const cv::Rect strip(0, 0, kDx, kFrame.height);
        QCOMPARE(cv::countNonZero(frame2(strip) != test.truth[1](strip)), 0);
        QVERIFY(!said.isEmpty());
        QVERIFY2(said.last().at(0).toString().contains(QStringLiteral("the model filled")),
                 qPrintable(said.last().at(0).toString()));

        // Not sure enough: the strip stays unlabelled.
        doc.undoStack()->undo();
        QVERIFY(!fs::exists(test.labelMap(1)));
        QVERIFY(doc.propagateAlongSequence({1}, runDir, checkpoint, 251));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        QCOMPARE(cv::countNonZero(data::readLabelMap(test.labelMap(1), project.schema())(strip) != kUnlabelled), 0);
    }

    // Issue 61.2: a model wrong the same way on every frame (it calls the street "car") is corrected
    // by the chain's labelled frame when the cache has the model's scores of it: the strip the
    // flow cannot carry takes "street". Without those scores the model's own answer fills it.
    void theChainsLabelledFrameCorrectsTheModel_data()
    {
        QTest::addColumn<bool>("labelledFramePredicted");
        QTest::newRow("corrected") << true;
        QTest::newRow("the labelled frame never predicted") << false;
    }

    void theChainsLabelledFrameCorrectsTheModel()
    {
        QFETCH(bool, labelledFramePredicted);
        SequenceProject test(/*others=*/false);
        const data::Project& project = test.project();
        const auto [runDir, checkpoint] = test.fakeRun();
        const data::PredictionCache cache(runDir, checkpoint);
        cache.prepare();
        for (const std::size_t index : {std::size_t(0), std::size_t(1)}) {
            if (index == 0 && !labelledFramePredicted)
                continue;
            const auto model = painttest::wrongModel(test.truth[index], 0, 1, 6);
            data::PredictionCache::writeEntry(cache.folder(), data::PredictionCache::keyOf(project, index),
                                              {model.classes, model.confidence, model.entropy, model.scores},
                                              project.schema());
        }
        ProjectDocument& doc = *test.document;
        QSignalSpy said(&doc, &ProjectDocument::message);
        QVERIFY(doc.propagateAlongSequence({1}, runDir, checkpoint, 128));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        QVERIFY(!said.isEmpty());
        QCOMPARE(said.last().at(0).toString().contains(QStringLiteral("corrected by the labelled frame")),
                 labelledFramePredicted);
        const cv::Mat frame2 = data::readLabelMap(test.labelMap(1), project.schema());
        const cv::Rect strip(0, 0, kDx, kFrame.height);
        QCOMPARE(cv::countNonZero(test.truth[1](strip) != 0), 0);
        const int street = cv::countNonZero(frame2(strip) == 0), car = cv::countNonZero(frame2(strip) == 1);
        if (labelledFramePredicted)
            QVERIFY2(street >= strip.area() * 95 / 100, qPrintable(QStringLiteral("%1 street, %2 car").arg(street).arg(car)));
        else
            QCOMPARE(car, strip.area());
    }

    // Cancel is honoured between frames, before any map is replaced: stopped after frame 2 was
    // carried (its map computed and kept in the backup folder), nothing on disk has changed, and
    // the backups go.
    void stoppingAfterTheFirstFrameChangesNothing()
    {
        SequenceProject test;
        const auto before = test.mapsNow();
        const fs::path backups = test.root() / "backup";
        paint::PropagationBatch batch(backups);
        std::vector<std::size_t> asked;
        // Frames 1..4 are visited in order (done 0..3): stop before frame 3, frame 2 carried.
        const auto summary = batch.apply(test.project(), {0, 1, 2, 3}, nullptr, {}, [&](std::size_t done, std::size_t) {
            asked.push_back(done);
            return done < 2;
        });
        QVERIFY(summary.stopped);
        QCOMPARE(asked, (std::vector<std::size_t> {0, 1, 2}));
        QVERIFY(batch.changed().empty());
        QVERIFY(test.mapsNow() == before);
        QVERIFY(!batch.unfinished());
        QVERIFY(batch.discard());
        QVERIFY(!fs::exists(backups));
    }

    // Cancel through the document, as the status bar's Cancel does it: whenever it lands, the
    // project is consistent: nothing changed and nothing to undo, or the frames written and one
    // Undo that gives back the exact files.
    void cancelLeavesAConsistentProject()
    {
        SequenceProject test;
        ProjectDocument& doc = *test.document;
        const auto before = test.mapsNow();
        QSignalSpy said(&doc, &ProjectDocument::message);
        // Frames are visited cam_00001, cam_00002, lone, then seq_00001..4 (done 0..6): cancel as
        // soon as the status bar shows seq_00002 done (the worker may be further on by then).
        QObject::connect(&doc, &ProjectDocument::jobProgress, &doc,
                         [&doc](const QString&, std::size_t done, std::size_t) {
                             if (done >= 5 && doc.jobCancellable())
                                 doc.cancelJob();
                         });
        QVERIFY(doc.propagateAlongSequence(test.everyImage(), {}, {}, 128));
        QVERIFY(doc.jobCancellable());
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        if (doc.undoStack()->count() == 0) {
            QVERIFY(test.mapsNow() == before);
            QVERIFY(!said.isEmpty());
            QVERIFY2(said.last().at(0).toString().contains(QStringLiteral("cancelled")),
                     qPrintable(said.last().at(0).toString()));
            QVERIFY(test.project().entry(1).status == data::LabelStatus::Unlabelled);
        } else {
            QCOMPARE(doc.undoStack()->count(), 1);
            QVERIFY(fs::exists(test.labelMap(1)));
            doc.undoStack()->undo();
            QVERIFY(test.mapsNow() == before);
        }
        // Cancelled at once: before the first frame, nothing happens.
        QVERIFY(doc.propagateAlongSequence(test.everyImage(), {}, {}, 128));
        doc.cancelJob();
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        QVERIFY(test.mapsNow() == before);
        QVERIFY(said.last().at(0).toString().contains(QStringLiteral("cancelled")));
        // A cancelled job leaves no backups behind: one folder per command on the stack.
        const fs::path undoRoot = test.root() / ".segstudio-undo";
        int folders = 0;
        if (fs::exists(undoRoot))
            for (const fs::directory_entry& entry : fs::directory_iterator(undoRoot))
                folders += entry.is_directory() ? 1 : 0;
        QCOMPARE(folders, doc.undoStack()->count());
    }

    // Read-only, or a job under way: refused, nothing started.
    void refusedWhenTheDocumentCannotTakeIt()
    {
        SequenceProject test;
        ProjectDocument& doc = *test.document;
        QVERIFY(!doc.propagateAlongSequence({}, {}, {}, 128));
        QVERIFY(doc.propagateAlongSequence(test.everyImage(), {}, {}, 128));
        QVERIFY(!doc.propagateAlongSequence(test.everyImage(), {}, {}, 128));  // busy
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isBusy(), kWaitMs);
        ProjectDocument second(data::Project::load(test.project().file()));  // the first holds the lock
        QVERIFY(second.isReadOnly());
        QVERIFY(!second.propagateAlongSequence(test.everyImage(), {}, {}, 128));
    }
};

QTEST_MAIN(TestPropagateAlongSequence)
#include "test_PropagateAlongSequence.moc"
