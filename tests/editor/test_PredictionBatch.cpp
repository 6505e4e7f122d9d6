#include "EditorTestProject.h"

#include "data/ImageIO.h"
#include "data/LabelMapIO.h"
#include "data/PredictionCache.h"
#include "paint/PredictionBatch.h"
#include "run/AtomicFile.h"

#include <QtTest>

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
};

QTEST_GUILESS_MAIN(TestPredictionBatch)
#include "test_PredictionBatch.moc"
