#include "TestFiles.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <thread>

using namespace segstudio;
namespace fs = std::filesystem;

// The on-disk predictions of a checkpoint: found again while the checkpoint is the same, gone
// (never shown as the new model's) once training rewrote it.
class TestPredictionCache : public QObject {
    Q_OBJECT

    static void writePrediction(const data::PredictionCache& cache, const std::string& stem, const data::ClassSchema& schema)
    {
        data::writeLabelMap(cache.classesFile(stem), cv::Mat(4, 6, CV_8UC1, cv::Scalar(1)), schema);
        data::writeImageGray(cache.confidenceFile(stem), cv::Mat(4, 6, CV_8UC1, cv::Scalar(200)));
        data::writeImageGray(cache.entropyFile(stem), cv::Mat(4, 6, CV_8UC1, cv::Scalar(30)));
    }

    // <dir>/run/checkpoints/best.pt with some bytes.
    static fs::path writeCheckpoint(const QTemporaryDir& dir)
    {
        const fs::path checkpoint = test::path(dir, "run") / "checkpoints" / "best.pt";
        fs::create_directories(checkpoint.parent_path());
        test::writeBytes(checkpoint, "weights v1");
        return checkpoint;
    }

private slots:
    void keepsPredictionsOfTheSameCheckpoint()
    {
        QTemporaryDir dir;
        const fs::path run = test::path(dir, "run");
        const fs::path checkpoint = writeCheckpoint(dir);
        const auto schema = test::threeClasses();

        const data::PredictionCache cache(run, checkpoint);
        QCOMPARE(QString::fromStdString(cache.folder().string()), QString::fromStdString((run / "predictions" / "best").string()));
        QVERIFY(!cache.isCurrent());
        cache.prepare();
        QVERIFY(cache.isCurrent());
        QVERIFY(!cache.load("a", schema, {6, 4}));  // not predicted yet
        writePrediction(cache, "a", schema);
        const auto entry = cache.load("a", schema, {6, 4});
        QVERIFY(entry);
        QCOMPARE(int(entry->classes.at<std::uint8_t>(2, 3)), 1);
        QCOMPARE(int(entry->confidence.at<std::uint8_t>(0, 0)), 200);
        QCOMPARE(int(entry->entropy.at<std::uint8_t>(3, 5)), 30);
        cache.prepare();  // same checkpoint: kept
        QVERIFY(cache.contains("a"));
    }

    void staleAfterTheCheckpointChanges()
    {
        QTemporaryDir dir;
        const fs::path run = test::path(dir, "run");
        const fs::path checkpoint = writeCheckpoint(dir);
        const auto schema = test::threeClasses();
        const data::PredictionCache cache(run, checkpoint);
        cache.prepare();
        writePrediction(cache, "a", schema);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        test::writeBytes(checkpoint, "weights v2, a better model");
        QVERIFY(!cache.isCurrent());
        QVERIFY(!cache.load("a", schema, {6, 4}));  // the old model's prediction is never shown
        cache.prepare();
        QVERIFY(cache.isCurrent());
        QVERIFY(!cache.contains("a"));
    }

    // predict --adapt-norm: a writer that predicts another way (adapted, or as trained again)
    // empties the folder, so the cache never mixes the two; a reader, which does not say how, reads
    // whichever the writers last prepared.
    void anotherAdaptationEmptiesTheFolder()
    {
        QTemporaryDir dir;
        const fs::path run = test::path(dir, "run");
        const fs::path checkpoint = writeCheckpoint(dir);
        const auto schema = test::threeClasses();
        const data::PredictionCache asTrained(run, checkpoint);
        const data::PredictionCache adapted(run, checkpoint, "batch norms to split test, weight 1");
        asTrained.prepare();
        writePrediction(asTrained, "a", schema);
        adapted.prepare();
        QVERIFY(!adapted.contains("a"));  // the trained model's prediction is not the adapted one's
        writePrediction(adapted, "b", schema);
        QCOMPARE(asTrained.adaptationInUse(), std::string("batch norms to split test, weight 1"));
        QVERIFY(asTrained.isCurrent());  // a reader reads the adapted predictions
        QVERIFY(asTrained.load("b", schema, {6, 4}));
        adapted.prepare();  // the same way again: kept
        QVERIFY(adapted.contains("b"));
        asTrained.prepare();  // as trained again: emptied
        QVERIFY(!asTrained.contains("b"));
        QCOMPARE(adapted.adaptationInUse(), std::string());
    }

    void badFilesAreNamed()
    {
        QTemporaryDir dir;
        const fs::path run = test::path(dir, "run");
        const fs::path checkpoint = run / "last.pt";
        fs::create_directories(run);
        const auto schema = test::threeClasses();
        const data::PredictionCache missing(run, checkpoint);
        test::expectDataError([&] { missing.prepare(); }, checkpoint, QStringLiteral("no such checkpoint"));

        test::writeBytes(checkpoint, "weights");
        const data::PredictionCache cache(run, checkpoint);
        cache.prepare();
        writePrediction(cache, "a", schema);
        test::expectDataError([&] { (void)cache.load("a", schema, {7, 4}); }, cache.classesFile("a"), QStringLiteral("7"));
        test::writeBytes(cache.confidenceFile("a"), "not a png");
        test::expectDataError([&] { (void)cache.load("a", schema, {6, 4}); }, cache.confidenceFile("a"),
                              QStringLiteral("not a readable image"));
    }
};

QTEST_GUILESS_MAIN(TestPredictionCache)
#include "test_PredictionCache.moc"
