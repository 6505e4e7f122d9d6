#include "run/AtomicFile.h"
#include "data/ClassSchema.h"
#include "data/DatasetRelabeler.h"
#include "data/ImageIO.h"
#include "data/LabelMapIO.h"
#include "data/Project.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace segstudio::data;
using segstudio::run::readFile;

// Merging and deleting classes over a small project on disk: exact pixels, exact counts, files
// without the class left untouched, and a damaged file reported without stopping the others.
class TestDatasetRelabeler : public QObject {
    Q_OBJECT

private:
    struct TempProject {
        QTemporaryDir dir;
        std::unique_ptr<Project> project;
        std::vector<cv::Mat> maps;  // what was written for images 0 and 1; image 2 has none

        TempProject()
        {
            const std::filesystem::path root = dir.path().toStdString();
            project = std::make_unique<Project>(root / "p.segstudio", schemaBefore());
            for (int i = 0; i < 3; ++i) {
                const std::filesystem::path image = root / ("img" + std::to_string(i) + ".png");
                writeImageRgb(image, cv::Mat(16, 24, CV_8UC3, cv::Scalar(10, 20, 30)));
                project->addImage(image);
            }
            std::filesystem::create_directories(project->labelRoot());
            cv::Mat first(16, 24, CV_8UC1, cv::Scalar(0));
            first(cv::Rect(0, 0, 10, 16)).setTo(1);  // 160 px of class 1
            first(cv::Rect(20, 0, 4, 4)).setTo(255);
            cv::Mat second(16, 24, CV_8UC1, cv::Scalar(2));  // no class 1 at all
            second(cv::Rect(0, 0, 5, 5)).setTo(0);           // 25 px of class 0
            maps = {first, second};
            for (std::size_t i = 0; i < maps.size(); ++i)
                writeLabelMap(project->labelMapPath(i), maps[i], schemaBefore());
        }
    };

    static ClassSchema schemaBefore()
    {
        return ClassSchema({{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"}, {2, "tree", {0, 128, 0}, "3"}});
    }

    static ClassSchema without(int id)
    {
        ClassSchema schema = schemaBefore();
        schema.remove(id);
        return schema;
    }

    static bool hasPartialFiles(const std::filesystem::path& folder)
    {
        for (const auto& item : std::filesystem::directory_iterator(folder)) {
            if (item.path().filename().string().find(".partial") != std::string::npos)
                return true;
        }
        return false;
    }

private slots:
    void mergeRewritesOnlyFilesWithTheClass()
    {
        TempProject t;
        const std::string secondBefore = readFile(t.project->labelMapPath(1));
        const auto secondTime = std::filesystem::last_write_time(t.project->labelMapPath(1));
        DatasetRelabeler relabeler;
        relabeler.map(1, 2);
        std::vector<std::size_t> progress;
        const auto result = relabeler.run(*t.project, schemaBefore(), without(1),
                                          [&](std::size_t done, std::size_t) { progress.push_back(done); });
        QVERIFY(result.failures.empty());
        QCOMPARE(result.filesChanged, std::size_t(1));
        QCOMPARE(result.pixelsChanged, std::int64_t(160));
        QCOMPARE(progress.back(), std::size_t(3));

        cv::Mat expected = t.maps[0].clone();
        expected.setTo(2, t.maps[0] == 1);
        const cv::Mat first = readLabelMap(t.project->labelMapPath(0), without(1));
        QCOMPARE(cv::countNonZero(first != expected), 0);
        // The second map had nothing to change: not rewritten at all.
        QCOMPARE(readFile(t.project->labelMapPath(1)), secondBefore);
        QVERIFY(std::filesystem::last_write_time(t.project->labelMapPath(1)) == secondTime);
        QVERIFY(!std::filesystem::exists(t.project->labelMapPath(2)));  // no map: skipped, not created
        QVERIFY(!hasPartialFiles(t.project->labelRoot()));
    }

    void deleteMakesPixelsUnlabelled()
    {
        TempProject t;
        DatasetRelabeler relabeler;
        relabeler.map(0, 255);
        const auto result = relabeler.run(*t.project, schemaBefore(), without(0));
        QVERIFY(result.failures.empty());
        QCOMPARE(result.filesChanged, std::size_t(2));
        const std::int64_t zeros0 = cv::countNonZero(t.maps[0] == 0);
        QCOMPARE(result.pixelsChanged, zeros0 + 25);
        for (std::size_t i = 0; i < 2; ++i) {
            cv::Mat expected = t.maps[i].clone();
            expected.setTo(255, t.maps[i] == 0);
            const cv::Mat map = readLabelMap(t.project->labelMapPath(i), without(0));
            QCOMPARE(cv::countNonZero(map != expected), 0);
        }
    }

    void damagedFileIsReportedAndOthersProceed()
    {
        TempProject t;
        // Image 2 gets a label map that is not a PNG.
        std::ofstream(t.project->labelMapPath(2)) << "not a png";
        const std::string damaged = readFile(t.project->labelMapPath(2));
        DatasetRelabeler relabeler;
        relabeler.map(0, 255);
        const auto result = relabeler.run(*t.project, schemaBefore(), without(0));
        QCOMPARE(result.failures.size(), std::size_t(1));
        QVERIFY2(result.failures.front().find(t.project->labelMapPath(2).filename().string()) != std::string::npos,
                 result.failures.front().c_str());
        QCOMPARE(result.filesChanged, std::size_t(2));
        QCOMPARE(readFile(t.project->labelMapPath(2)), damaged);  // left as it was
        QVERIFY(!hasPartialFiles(t.project->labelRoot()));
    }

    void applyMapsInMemory_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::addColumn<int>("changed");
        QTest::newRow("merge 1 into 2") << 1 << 2 << 160;
        QTest::newRow("delete 1") << 1 << 255 << 160;
        QTest::newRow("absent class") << 7 << 2 << 0;
        QTest::newRow("onto itself") << 0 << 0 << 0;
    }

    void applyMapsInMemory()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        QFETCH(int, changed);
        TempProject t;
        cv::Mat labels = t.maps[0].clone();
        DatasetRelabeler relabeler;
        relabeler.map(from, to);
        QCOMPARE(relabeler.isIdentity(), from == to);
        QCOMPARE(relabeler.apply(labels), std::int64_t(changed));
        QCOMPARE(cv::countNonZero(labels == from), from == to ? cv::countNonZero(t.maps[0] == from) : 0);
    }

    void rejectsIdsOutOfRange()
    {
        DatasetRelabeler relabeler;
        QVERIFY_THROWS_EXCEPTION(std::exception, relabeler.map(-1, 2));
        QVERIFY_THROWS_EXCEPTION(std::exception, relabeler.map(1, 256));
    }
};

QTEST_APPLESS_MAIN(TestDatasetRelabeler)
#include "test_DatasetRelabeler.moc"
