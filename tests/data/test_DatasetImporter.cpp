#include "TestFiles.h"
#include "data/labels/DataError.h"
#include "data/formats/DatasetImporter.h"
#include "data/project/DatasetStatistics.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/formats/RasterFormatImporter.h"

#include <QDir>
#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>
#include <opencv2/imgcodecs.hpp>

using namespace segstudio;
namespace fs = std::filesystem;

class TestDatasetImporter : public QObject {
    Q_OBJECT

private:
    // A SegNet-layout dataset of 3 train + 2 val images, 12x16, annotations with value 11 = void.
    static void writeSegNetLayout(const fs::path& root, bool withLists)
    {
        for (const char* split : {"train", "val"}) {
            fs::create_directories(root / split);
            fs::create_directories(root / (std::string(split) + "annot"));
            const int count = std::string(split) == "train" ? 3 : 2;
            std::string list;
            for (int n = 0; n < count; ++n) {
                const std::string name = std::string(split) + std::to_string(n) + ".png";
                data::writeImageRgb(root / split / name, cv::Mat(12, 16, CV_8UC3, cv::Scalar(n * 40, 10, 200)));
                cv::Mat annot = test::patternLabels(12, 16, 11);
                annot.at<std::uint8_t>(0, n) = 11;
                cv::imwrite((root / (std::string(split) + "annot") / name).string(), annot);
                list += std::string(split) + "/" + name + " " + split + "annot/" + name + "\n";
            }
            if (withLists)
                test::writeBytes(root / (std::string(split) + ".txt"), list);
        }
    }

private slots:
    void segNetLayout_data()
    {
        QTest::addColumn<bool>("withLists");
        QTest::newRow("pair lists") << true;
        QTest::newRow("folders only") << false;
    }

    void segNetLayout()
    {
        QFETCH(bool, withLists);
        QTemporaryDir dir;
        const fs::path dataset = test::path(dir, "camvid");
        writeSegNetLayout(dataset, withLists);
        const data::Project project =
            data::DatasetImporter::importSegNetLayout(dataset, test::path(dir, "project/p.segstudio"));
        QCOMPARE(project.size(), std::size_t(5));
        QCOMPARE(project.indicesOf(data::Split::Train).size(), std::size_t(3));
        QCOMPARE(project.indicesOf(data::Split::Val).size(), std::size_t(2));
        QCOMPARE(data::Project::load(project.file()), project);

        const std::size_t first = project.indexOf("../camvid/train/train1.png").value();
        QVERIFY(project.entry(first).status == data::LabelStatus::Labelled);
        const cv::Mat labels = data::readLabelMap(project.labelMapPath(first), project.schema());
        cv::Mat expected = test::patternLabels(12, 16, 11);
        expected.at<std::uint8_t>(0, 1) = 255;  // void became unlabelled
        QVERIFY(test::sameMat(labels, expected));
    }

    // `segstudio-train import segnet ../data/camvid -o camvid.segstudio`: a dataset path relative
    // to the working directory, the project elsewhere; every image must still be found from it.
    void relativeDatasetPathFromTheWorkingDirectory()
    {
        QTemporaryDir dir;
        writeSegNetLayout(test::path(dir, "data/camvid"), true);
        fs::create_directories(test::path(dir, "work"));
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.filePath(QStringLiteral("work"))));
        const data::Project project =
            data::DatasetImporter::importSegNetLayout("../data/camvid", test::path(dir, "projects/p.segstudio"));
        QDir::setCurrent(previous);
        QCOMPARE(project.size(), std::size_t(5));
        for (std::size_t i = 0; i < project.size(); ++i)
            QVERIFY2(fs::exists(project.imagePath(i)), project.imagePath(i).string().c_str());
        QVERIFY(project.indexOf("../data/camvid/train/train1.png"));
    }

    void badDatasetsNameTheFile_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("culprit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing image") << 0 << "train/train2.png" << "image not found";
        QTest::newRow("size mismatch") << 1 << "trainannot/train1.png" << "but its image is 16x12";
        QTest::newRow("value outside schema") << 2 << "valannot/val0.png" << "has value 40";
        QTest::newRow("corrupt image") << 3 << "val/val1.png" << "not a readable image";
        QTest::newRow("bad list line") << 4 << "train.txt" << "line 2";
    }

    void badDatasetsNameTheFile()
    {
        QFETCH(int, fault);
        QFETCH(QString, culprit);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const fs::path dataset = test::path(dir, "camvid");
        writeSegNetLayout(dataset, true);
        const fs::path bad = dataset / culprit.toStdString();
        if (fault == 0)
            fs::remove(bad);
        if (fault == 1)
            cv::imwrite(bad.string(), cv::Mat(13, 16, CV_8UC1, cv::Scalar(1)));
        if (fault == 2)
            cv::imwrite(bad.string(), cv::Mat(12, 16, CV_8UC1, cv::Scalar(40)));
        if (fault == 3)
            test::writeBytes(bad, "\x89PNG but then nothing");
        if (fault == 4)
            test::writeBytes(bad, "train/train0.png trainannot/train0.png\nonly-one-field\n");
        const fs::path projectFile = test::path(dir, "project/p.segstudio");
        test::expectDataError([&] { data::DatasetImporter::importSegNetLayout(dataset, projectFile); }, bad, expected);
        // Nothing half-done stays: no project file, no label maps, not even their folder.
        QVERIFY(!fs::exists(projectFile));
        QVERIFY(!fs::exists(test::path(dir, "project/p.labels")));
    }

    void cancelWritesNothing()
    {
        QTemporaryDir dir;
        const fs::path dataset = test::path(dir, "camvid");
        writeSegNetLayout(dataset, true);
        const fs::path projectFile = test::path(dir, "project/p.segstudio");
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(data::ImportCancelled,
                                 data::DatasetImporter::importSegNetLayout(dataset, projectFile, data::ClassSchema::camVid(), 11,
                                                                           [&](std::size_t, std::size_t) { return ++calls < 3; }));
        QCOMPARE(calls, 3);
        QVERIFY(!fs::exists(projectFile));
        QVERIFY(!fs::exists(test::path(dir, "project/p.labels")));
        QVERIFY(!fs::exists(test::path(dir, "project/.p.labels.partial")));
    }

    // kill -9 in the middle of the batch (the child kills itself after its third image): no
    // project, no label folder to refuse the next try; the same import again succeeds and clears
    // the killed one's maps.
    void killedImportLeavesNothingInTheWay()
    {
        QTemporaryDir dir;
        const fs::path dataset = test::path(dir, "camvid");
        writeSegNetLayout(dataset, true);
        const fs::path projectFile = test::path(dir, "project/p.segstudio");
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            int calls = 0;
            data::DatasetImporter::importSegNetLayout(dataset, projectFile, data::ClassSchema::camVid(), 11,
                                                      [&](std::size_t, std::size_t) {
                                                          if (++calls == 3)
                                                              raise(SIGKILL);
                                                          return true;
                                                      });
            _exit(0);  // not reached: the import has more than 3 images
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        QVERIFY(!fs::exists(projectFile));
        QVERIFY(!fs::exists(test::path(dir, "project/p.labels")));
        QVERIFY(!fs::is_empty(test::path(dir, "project/.p.labels.partial")));  // the killed import's maps

        const data::Project project = data::DatasetImporter::importSegNetLayout(dataset, projectFile);
        QVERIFY(!fs::exists(test::path(dir, "project/.p.labels.partial")));
        for (std::size_t i = 0; i < project.size(); ++i)
            QVERIFY(fs::exists(project.labelMapPath(i)));
        QCOMPARE(data::Project::load(projectFile), project);
    }

    // Two projects made in one folder (a re-import beside the first, or two datasets): each has
    // its own label folder, and the first project's hand-edited map keeps its exact bytes.
    void secondProjectInTheSameFolderLeavesTheFirstsLabels()
    {
        QTemporaryDir dir;
        const fs::path dataset = test::path(dir, "camvid");
        writeSegNetLayout(dataset, true);
        const data::Project first = data::DatasetImporter::importSegNetLayout(dataset, test::path(dir, "P/p.segstudio"));
        const fs::path edited = first.labelMapPath(0);
        data::writeLabelMap(edited, cv::Mat(12, 16, CV_8UC1, cv::Scalar(3)), first.schema());  // the user's work
        const std::string editedBytes = test::readBytes(edited);

        const data::Project second =
            data::DatasetImporter::importSegNetLayout(dataset, test::path(dir, "P/reimport.segstudio"));
        QCOMPARE(test::readBytes(edited), editedBytes);
        QCOMPARE(second.labelRoot(), test::path(dir, "P/reimport.labels"));
        QCOMPARE(first.labelRoot(), test::path(dir, "P/p.labels"));
        for (std::size_t i = 0; i < second.size(); ++i)
            QVERIFY(second.labelMapPath(i).parent_path() == second.labelRoot());
        QCOMPARE(data::Project::load(test::path(dir, "P/p.segstudio")), first);
    }

    // A label folder of the new project's name that already holds files (a deleted project's
    // labels, say) is refused before anything is written, naming the folder.
    void labelFolderWithOthersFilesIsRefused()
    {
        QTemporaryDir dir;
        const fs::path dataset = test::path(dir, "camvid");
        writeSegNetLayout(dataset, true);
        const fs::path leftover = test::path(dir, "P/q.labels/train0.png");
        fs::create_directories(leftover.parent_path());
        test::writeBytes(leftover, "somebody's labels");
        const fs::path projectFile = test::path(dir, "P/q.segstudio");
        test::expectDataError([&] { data::DatasetImporter::importSegNetLayout(dataset, projectFile); },
                              leftover.parent_path(), QStringLiteral("did not write"));
        QVERIFY(!fs::exists(projectFile));
        QCOMPARE(test::readBytes(leftover), std::string("somebody's labels"));
        QCOMPARE(std::distance(fs::directory_iterator(leftover.parent_path()), fs::directory_iterator()), 1);
    }

    // Pascal-VOC style: palette PNGs whose palette is not the schema's; the indices count.
    void indexPngFolders()
    {
        QTemporaryDir dir;
        fs::create_directories(test::path(dir, "JPEGImages"));
        fs::create_directories(test::path(dir, "SegmentationClass"));
        const data::ClassSchema vocColours({{0, "background", {0, 0, 0}, ""}, {1, "aeroplane", {128, 0, 0}, ""},
                                            {2, "bicycle", {0, 128, 0}, ""}});
        cv::Mat labels = test::patternLabels(9, 11, 3);
        data::writeImageRgb(test::path(dir, "JPEGImages/2007_000032.jpg"), cv::Mat(9, 11, CV_8UC3, cv::Scalar(5, 5, 5)));
        data::writeLabelMap(test::path(dir, "SegmentationClass/2007_000032.png"), labels, vocColours);
        const data::Project project = data::DatasetImporter::importIndexPngs(
            test::path(dir, "JPEGImages"), test::path(dir, "SegmentationClass"), test::path(dir, "voc.segstudio"),
            test::threeClasses());
        QCOMPARE(project.size(), std::size_t(1));
        QVERIFY(test::sameMat(data::readLabelMap(project.labelMapPath(0), project.schema()), labels));
    }

    void imageFolderIsAllUnlabelled()
    {
        QTemporaryDir dir;
        for (const char* name : {"a.png", "sub/b.jpg", "notes.txt"}) {
            fs::create_directories(test::path(dir, "images/sub"));
            if (std::string(name).find(".txt") != std::string::npos)
                test::writeBytes(test::path(dir, "images") / name, "hello");
            else
                data::writeImageRgb(test::path(dir, "images") / name, cv::Mat(4, 4, CV_8UC3, cv::Scalar(1, 2, 3)));
        }
        const data::Project project = data::DatasetImporter::importImageFolder(
            test::path(dir, "images"), test::path(dir, "p.segstudio"), test::threeClasses());
        QCOMPARE(project.size(), std::size_t(2));
        QCOMPARE(project.entry(1).image, std::string("images/sub/b.jpg"));
        QVERIFY(project.entry(1).status == data::LabelStatus::Unlabelled);
    }

    void colourMasks()
    {
        QTemporaryDir dir;
        const data::ClassSchema schema = test::threeClasses();
        fs::create_directories(test::path(dir, "images"));
        fs::create_directories(test::path(dir, "masks"));
        const cv::Mat labels = test::patternLabels(10, 9, 3);
        data::writeImageRgb(test::path(dir, "images/x.jpg"), cv::Mat(10, 9, CV_8UC3, cv::Scalar(9, 9, 9)));
        data::writeImageRgb(test::path(dir, "masks/x.png"), data::colorize(labels, schema));
        const data::Project project = data::DatasetImporter::importColorMasks(
            test::path(dir, "images"), test::path(dir, "masks"), test::path(dir, "p.segstudio"), schema);
        QVERIFY(test::sameMat(data::readLabelMap(project.labelMapPath(0), schema), labels));

        cv::Mat rgb = data::colorize(labels, schema);
        rgb.at<cv::Vec3b>(2, 2) = cv::Vec3b(255, 255, 0);
        data::writeImageRgb(test::path(dir, "masks/x.png"), rgb);
        test::expectDataError([&] {
            data::DatasetImporter::importColorMasks(test::path(dir, "images"), test::path(dir, "masks"),
                                                    test::path(dir, "q.segstudio"), schema);
        }, test::path(dir, "masks/x.png"), QStringLiteral("#FFFF00"));
    }

    // The real CamVid, when the shared copy is present: counts and the class histogram, checked
    // against the annotation files read directly.
    void realCamVid()
    {
        if (!test::haveCamVid())
            QSKIP("CamVid not found at SEGSTUDIO_CAMVID_DIR");
        QTemporaryDir dir;
        const data::Project project =
            data::DatasetImporter::importSegNetLayout(test::camVidDir(), test::path(dir, "camvid.segstudio"));
        QCOMPARE(project.indicesOf(data::Split::Train).size(), std::size_t(367));
        QCOMPARE(project.indicesOf(data::Split::Val).size(), std::size_t(101));

        std::vector<std::uint64_t> expected(12, 0);
        for (const char* folder : {"trainannot", "valannot"})
            for (const auto& item : fs::directory_iterator(test::camVidDir() / folder)) {
                const cv::Mat annot = cv::imread(item.path().string(), cv::IMREAD_UNCHANGED);
                for (auto it = annot.begin<std::uint8_t>(); it != annot.end<std::uint8_t>(); ++it)
                    ++expected[*it];
            }
        const data::DatasetStatistics statistics = data::DatasetStatistics::ofProject(project);
        for (int c = 0; c < 11; ++c)
            QCOMPARE(statistics.classPixels(c), expected[c]);
        QCOMPARE(statistics.unlabelledPixels(), expected[11]);
        QVERIFY(expected[3] > expected[9]);  // sanity: road is far more common than pedestrians
    }

    // Issue 46.12: Mapillary label values that the config does not list became unlabelled without
    // a word. The import is refused naming the label map, the value and the config, and leaves
    // nothing behind.
    void mapillaryValueMissingFromTheConfigIsRefused()
    {
        QTemporaryDir dir;
        const fs::path root = test::path(dir, "vistas");
        test::writeBytes(
            root / "config.json",
            R"({"labels": [{"name": "construction--flat--road", "readable": "Road", "color": [128, 64, 128]},
                                        {"name": "object--vehicle--car", "readable": "Car", "color": [0, 0, 142]},
                                        {"name": "void--unlabeled", "readable": "Unlabeled", "color": [0, 0, 0]}]})");
        fs::create_directories(root / "training/images");
        data::writeImageRgb(root / "training/images/x.png", cv::Mat(4, 6, CV_8UC3, cv::Scalar(90, 90, 90)));
        cv::Mat values(4, 6, CV_8UC1, cv::Scalar(1));
        values.row(2).setTo(7);  // the config lists values 0 to 2
        fs::create_directories(root / "training/labels");
        QVERIFY(cv::imwrite((root / "training/labels/x.png").string(), values));
        const fs::path projectFile = test::path(dir, "m.segstudio");
        test::expectDataError([&] { data::RasterFormatImporter::importMapillary(root, projectFile); },
                              root / "training/labels/x.png",
                              QStringLiteral("pixel (0, 2) has label value 7, which %1 does not list")
                                  .arg(QString::fromStdString((root / "config.json").string())));
        QVERIFY(!fs::exists(projectFile));
        QVERIFY(!fs::exists(test::path(dir, "m.labels")));

        // Values the config lists, its "unlabeled" one included, still import.
        values.row(2).setTo(2);
        QVERIFY(cv::imwrite((root / "training/labels/x.png").string(), values));
        const data::Project project = data::RasterFormatImporter::importMapillary(root, projectFile);
        const cv::Mat labels = data::readLabelMap(project.labelMapPath(0), project.schema());
        QCOMPARE(cv::countNonZero(labels == 1), 18);
        QCOMPARE(cv::countNonZero(labels == 255), 6);
    }
};

QTEST_GUILESS_MAIN(TestDatasetImporter)
#include "test_DatasetImporter.moc"
