#include "TestFiles.h"
#include "data/DataError.h"
#include "data/DatasetPacker.h"
#include "data/DatasetStatistics.h"
#include "data/ImageIO.h"
#include "data/LabelMapIO.h"
#include "data/SyntheticDatasetGenerator.h"
#include "pack/PackError.h"
#include "pack/PackReader.h"

#include <QtTest>
#include <opencv2/imgproc.hpp>

using namespace segstudio;
namespace fs = std::filesystem;

class TestDatasetPacker : public QObject {
    Q_OBJECT

private slots:
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
