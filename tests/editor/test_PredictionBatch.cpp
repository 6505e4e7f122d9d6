#include "EditorTestProject.h"

#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "paint/PredictionBatch.h"
#include "data/project/LabelMapTransaction.h"
#include "run/AtomicFile.h"

#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace segstudio;
namespace fs = std::filesystem;

// Accept prediction for a selection of images: applied where allowed, undone and redone to the
// exact bytes, images without a prediction left alone.
class TestPredictionBatch : public QObject {
    Q_OBJECT

private slots:
    void appliesUndoesAndRedoesExactly()
    {
        EditorTestProject test;
        const auto& project = *test.project;
        const auto& schema = project.schema();
        // image0 has a label map: left half car (1), right half unlabelled; image1 has none.
        cv::Mat labels(64, 64, CV_8UC1, cv::Scalar(255));
        labels.colRange(0, 32).setTo(1);
        fs::create_directories(project.labelRoot());
        data::writeLabelMap(project.labelMapPath(0), labels, schema);
        const std::string beforeBytes = run::readFile(project.labelMapPath(0));

        const fs::path checkpoint = project.root() / "best.pt";
        run::writeFileAtomically(checkpoint, "weights");
        const data::PredictionCache cache(project.root() / "run", checkpoint);
        cache.prepare();
        cv::Mat predicted(64, 64, CV_8UC1, cv::Scalar(0));  // road everywhere
        predicted.rowRange(32, 64).setTo(2);                 // tree below
        const cv::Mat confidence(64, 64, CV_8UC1, cv::Scalar(200));
        for (std::size_t index : {std::size_t(0), std::size_t(1)}) {
            const std::string key = data::PredictionCache::keyOf(project, index);
            data::writeLabelMap(cache.classesFile(key), predicted, schema);
            data::writeImageGray(cache.confidenceFile(key), confidence);
            data::writeImageGray(cache.entropyFile(key), confidence);
        }

        paint::PredictionBatch batch(project.root() / "backup");
        paint::WriteGuard guard;
        const auto pixels = batch.apply(project, cache, {0, 1}, {}, guard);
        QCOMPARE(pixels, std::int64_t(32 * 64 + 64 * 64));  // image0's unlabelled half, all of image1
        QCOMPARE(batch.changed(), (std::vector<std::size_t>{0, 1}));
        const cv::Mat after0 = data::readLabelMap(project.labelMapPath(0), schema);
        QCOMPARE(int(after0.at<std::uint8_t>(5, 5)), 1);     // the car stays (unlabelled only)
        QCOMPARE(int(after0.at<std::uint8_t>(5, 50)), 0);    // road accepted
        QCOMPARE(int(after0.at<std::uint8_t>(50, 50)), 2);   // tree accepted
        const std::string afterBytes0 = run::readFile(project.labelMapPath(0));
        const std::string afterBytes1 = run::readFile(project.labelMapPath(1));

        QVERIFY(batch.undo().empty());
        QCOMPARE(run::readFile(project.labelMapPath(0)), beforeBytes);  // to the exact bytes
        QVERIFY(!fs::exists(project.labelMapPath(1)));                 // it had none
        QVERIFY(batch.redo().empty());
        QCOMPARE(run::readFile(project.labelMapPath(0)), afterBytes0);
        QCOMPARE(run::readFile(project.labelMapPath(1)), afterBytes1);

        // Labelled again after the batch: undo keeps that work and says so.
        cv::Mat relabelled = data::readLabelMap(project.labelMapPath(1), schema);
        relabelled.at<std::uint8_t>(0, 0) = 1;
        data::writeLabelMap(project.labelMapPath(1), relabelled, schema);
        const std::string userBytes = run::readFile(project.labelMapPath(1));
        QCOMPARE(batch.undo(), std::vector<std::size_t>{1});
        QCOMPARE(run::readFile(project.labelMapPath(1)), userBytes);
        QCOMPARE(run::readFile(project.labelMapPath(0)), beforeBytes);
        batch.discard();
        QVERIFY(!fs::exists(project.root() / "backup"));
    }

    void locksConfidenceAndMissingPredictions()
    {
        EditorTestProject test;
        const auto& project = *test.project;
        cv::Mat labels(64, 64, CV_8UC1, cv::Scalar(1));
        fs::create_directories(project.labelRoot());
        data::writeLabelMap(project.labelMapPath(0), labels, project.schema());
        const fs::path checkpoint = project.root() / "best.pt";
        run::writeFileAtomically(checkpoint, "weights");
        const data::PredictionCache cache(project.root() / "run", checkpoint);
        cache.prepare();
        const std::string key = data::PredictionCache::keyOf(project, 0);
        cv::Mat confidence(64, 64, CV_8UC1, cv::Scalar(250));
        confidence.colRange(0, 16).setTo(10);
        data::writeLabelMap(cache.classesFile(key), cv::Mat(64, 64, CV_8UC1, cv::Scalar(0)), project.schema());
        data::writeImageGray(cache.confidenceFile(key), confidence);
        data::writeImageGray(cache.entropyFile(key), confidence);

        paint::PredictionBatch locked(project.root() / "backup-locked");
        paint::WriteGuard guard;
        guard.setProtected(1, true);
        paint::AcceptOptions everywhere;
        everywhere.unlabelledOnly = false;
        QCOMPARE(locked.apply(project, cache, {0, 1}, everywhere, guard), std::int64_t(0));  // car locked; image1 unpredicted
        QVERIFY(locked.changed().empty());

        paint::PredictionBatch sure(project.root() / "backup-sure");
        everywhere.minConfidence = 128;
        QCOMPARE(sure.apply(project, cache, {0}, everywhere, paint::WriteGuard()), std::int64_t(48 * 64));
        QCOMPARE(int(data::readLabelMap(project.labelMapPath(0), project.schema()).at<std::uint8_t>(0, 0)), 1);  // unsure: kept
    }

    // Accept Prediction for a selection, killed with SIGKILL after 3 of 8 maps were replaced (the
    // child stops right there and waits for the signal): the next open rolls the whole batch back,
    // every map to its exact bytes, and removes the maps that did not exist. All or nothing.
    void killedMidBatchIsRolledBackOnTheNextOpen()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const data::ClassSchema schema({{0, "road", {128, 64, 128}, ""}, {1, "car", {64, 0, 128}, ""}});
        data::Project project(root / "p.segstudio", schema);
        constexpr std::size_t kImages = 8;
        std::vector<std::size_t> all;
        for (std::size_t i = 0; i < kImages; ++i) {
            const fs::path image = root / ("img" + std::to_string(i) + ".png");
            data::writeImageRgb(image, cv::Mat(16, 16, CV_8UC3, cv::Scalar(9, 9, 9)));
            all.push_back(project.addImage(image));
            if (i % 2 == 0) {  // half have labels, half have none yet
                fs::create_directories(project.labelMapPath(i).parent_path());
                data::writeLabelMap(project.labelMapPath(i), cv::Mat(16, 16, CV_8UC1, cv::Scalar(1)), schema);
            }
        }
        project.save();
        const fs::path checkpoint = root / "best.pt";
        run::writeFileAtomically(checkpoint, "weights");
        const data::PredictionCache cache(root / "run", checkpoint);
        cache.prepare();
        for (std::size_t i : all) {
            const std::string key = data::PredictionCache::keyOf(project, i);
            data::writeLabelMap(cache.classesFile(key), cv::Mat(16, 16, CV_8UC1, cv::Scalar(0)), schema);
            data::writeImageGray(cache.confidenceFile(key), cv::Mat(16, 16, CV_8UC1, cv::Scalar(250)));
            data::writeImageGray(cache.entropyFile(key), cv::Mat(16, 16, CV_8UC1, cv::Scalar(5)));
        }
        auto mapBytes = [&] {
            std::vector<std::string> bytes;
            for (std::size_t i : all)
                bytes.push_back(fs::exists(project.labelMapPath(i)) ? run::readFile(project.labelMapPath(i)) : "");
            return bytes;
        };
        const auto original = mapBytes();

        int ready[2];
        QVERIFY(::pipe(ready) == 0);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            ::close(ready[0]);
            paint::PredictionBatch batch(data::LabelMapTransaction::undoRoot(project.file()) / "accept");
            paint::AcceptOptions everywhere;
            everywhere.unlabelledOnly = false;
            batch.apply(project, cache, all, everywhere, paint::WriteGuard(), [&](std::size_t done, std::size_t total) {
                if (done == total / 2 + 3) {  // phase 2, three maps replaced
                    (void)!::write(ready[1], "x", 1);
                    for (;;)
                        ::pause();
                }
                return true;
            });
            _exit(4);
        }
        ::close(ready[1]);
        char byte = 0;
        QCOMPARE(::read(ready[0], &byte, 1), ssize_t(1));
        ::close(ready[0]);
        ::kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        const auto crashed = mapBytes();
        int replaced = 0;
        for (std::size_t i = 0; i < kImages; ++i)
            replaced += crashed[i] != original[i];
        QCOMPARE(replaced, 3);

        const auto recovered = data::LabelMapTransaction::recoverInterrupted(project.file());
        QCOMPARE(recovered.size(), std::size_t(1));
        QVERIFY(mapBytes() == original);
        QVERIFY(fs::is_empty(data::LabelMapTransaction::undoRoot(project.file())));
    }
};

QTEST_GUILESS_MAIN(TestPredictionBatch)
#include "test_PredictionBatch.moc"
