#include "TestFiles.h"
#include "data/labels/DataError.h"
#include "data/project/DatasetPacker.h"
#include "data/project/DatasetStatistics.h"
#include "data/project/DefaultPackSize.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/SyntheticDatasetGenerator.h"
#include "pack/PackError.h"
#include "pack/PackReader.h"

#include <QtTest>
#include <opencv2/imgproc.hpp>

using namespace segstudio;
namespace fs = std::filesystem;

class TestDatasetPacker : public QObject {
    Q_OBJECT

private slots:
    // Issue 50.2: the Train dialog packs at the images' own size (CamVid's 360x480, where the
    // defaults were measured), a large image set scaled to 480 px on its long side.
    void theDefaultPackSizeIsTheImagesMostCommonSizeWithinTheLongSide()
    {
        QTemporaryDir dir;
        data::Project project = data::SyntheticDatasetGenerator(360, 480).writeProject(dir.path().toStdString(), 5, 2);
        QCOMPARE(data::mostCommonImageSize(project), cv::Size(480, 360));
        QCOMPARE(data::defaultPackSize(project), cv::Size(480, 360));  // fits: its own size
        // Two larger images join five of 360x480: the majority decides.
        for (const char* name : {"big1.png", "big2.png"}) {
            data::writeImageRgb(test::path(dir, name), cv::Mat(600, 1000, CV_8UC3, cv::Scalar(10, 20, 30)));
            project.addImage(test::path(dir, name));
        }
        QCOMPARE(data::mostCommonImageSize(project), cv::Size(480, 360));
        // A missing image is passed over, not a failure; only the 1000x600 ones left: scaled.
        for (std::size_t i = 0; i < 5; ++i)
            fs::remove(project.imagePath(i));
        QCOMPARE(data::mostCommonImageSize(project), cv::Size(1000, 600));
        QCOMPARE(data::defaultPackSize(project), cv::Size(480, 288));
        fs::remove(test::path(dir, "big1.png"));
        fs::remove(test::path(dir, "big2.png"));
        QVERIFY(data::defaultPackSize(project).empty());  // nothing readable: no proposal

        QCOMPARE(data::fitLongSide({4000, 3000}), cv::Size(480, 360));
        QCOMPARE(data::fitLongSide({1024, 2048}), cv::Size(240, 480));  // portrait: the height is long
        QCOMPARE(data::fitLongSide({2048, 1024}), cv::Size(480, 240));
        QCOMPARE(data::fitLongSide({333, 250}), cv::Size(333, 250));  // within: untouched, odd or not
        QCOMPARE(data::fitLongSide({4001, 3}), cv::Size(480, 2));  // never a side of 0
        QVERIFY(data::fitLongSide({0, 10}).empty());
    }

    void packsTheSplitAtTheRequestedSize()
    {
        QTemporaryDir dir;
        const data::Project project = data::SyntheticDatasetGenerator(60, 80).writeProject(dir.path().toStdString(), 10, 4);
        const fs::path packFile = test::path(dir, "train.pack");
        const std::size_t count = data::DatasetPacker::pack(project, data::Split::Train, packFile, {30, 40});
        QCOMPARE(count, project.indicesOf(data::Split::Train).size());

        const pack::PackReader reader(packFile.string());
        QCOMPARE(reader.size(), count);
        QCOMPARE(reader.spec().height, 30u);
        QCOMPARE(reader.spec().width, 40u);
        QCOMPARE(reader.spec().classes.size(), std::size_t(11));
        QCOMPARE(reader.spec().classes[3].name, std::string("Road"));

        const std::size_t second = project.indicesOf(data::Split::Train)[1];
        cv::Mat labels;
        cv::resize(data::readLabelMap(project.labelMapPath(second), project.schema()), labels, {40, 30}, 0, 0, cv::INTER_NEAREST);
        cv::Mat image;
        cv::resize(data::readImageRgb(project.imagePath(second)), image, {40, 30}, 0, 0, cv::INTER_AREA);
        QVERIFY(test::sameMat(cv::Mat(30, 40, CV_8UC1, const_cast<std::uint8_t*>(reader.label(1))), labels));
        QVERIFY(test::sameMat(cv::Mat(30, 40, CV_8UC3, const_cast<std::uint8_t*>(reader.image(1))), image));

        data::DatasetStatistics statistics;
        for (std::size_t i = 0; i < reader.size(); ++i)
            statistics.addLabelMap(cv::Mat(30, 40, CV_8UC1, const_cast<std::uint8_t*>(reader.label(i))));
        for (int c = 0; c < 11; ++c) {
            QCOMPARE(reader.spec().classes[c].pixelCount, statistics.classPixels(c));
            QCOMPARE(reader.spec().classes[c].imagePixelCount, statistics.imagePixels(c));
        }
    }

    void unlabelledImagesAreLeftOutAndAnEmptySplitIsAnError()
    {
        QTemporaryDir dir;
        data::Project project = data::SyntheticDatasetGenerator(20, 20).writeProject(dir.path().toStdString(), 5, 1);
        for (std::size_t i = 0; i < project.size(); ++i)
            project.setStatus(i, data::LabelStatus::Unlabelled);
        try {
            data::DatasetPacker::pack(project, data::Split::Train, test::path(dir, "t.pack"), {16, 16});
            QFAIL("packed an empty split");
        } catch (const data::DataError& error) {
            QVERIFY2(QString::fromStdString(error.what()).contains(QStringLiteral("no labelled images")), error.what());
        }
        QVERIFY(!fs::exists(test::path(dir, "t.pack")));
    }

    void aBadImageLeavesNoPack()
    {
        QTemporaryDir dir;
        const data::Project project = data::SyntheticDatasetGenerator(20, 20).writeProject(dir.path().toStdString(), 5, 1);
        const std::size_t victim = project.indicesOf(data::Split::Train).back();
        test::writeBytes(project.imagePath(victim), "broken");
        try {
            data::DatasetPacker::pack(project, data::Split::Train, test::path(dir, "t.pack"), {16, 16});
            QFAIL("packed a broken image");
        } catch (const data::DataError& error) {
            QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(project.imagePath(victim).string()));
        }
        QVERIFY(!fs::exists(test::path(dir, "t.pack")));
        QVERIFY(!fs::exists(test::path(dir, "t.pack.partial")));
    }
};

QTEST_GUILESS_MAIN(TestDatasetPacker)
#include "test_DatasetPacker.moc"
