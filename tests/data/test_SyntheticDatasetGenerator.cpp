#include "TestFiles.h"
#include "data/project/DatasetStatistics.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/SyntheticDatasetGenerator.h"

#include <QtTest>

using namespace segstudio;

class TestSyntheticDatasetGenerator : public QObject {
    Q_OBJECT

private slots:
    void sameSeedSamePixels()
    {
        const data::SyntheticDatasetGenerator generator(90, 120);
        const auto a = generator.generate(5);
        const auto b = generator.generate(5);
        const auto c = generator.generate(6);
        QVERIFY(test::sameMat(a.image, b.image));
        QVERIFY(test::sameMat(a.labels, b.labels));
        QVERIFY(!test::sameMat(a.labels, c.labels));
    }

    void everyCamVidClassAppearsAndEveryPixelIsLabelled()
    {
        const data::SyntheticDatasetGenerator generator;  // 360x480, the reference size
        data::DatasetStatistics statistics;
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            const auto scene = generator.generate(seed);
            QCOMPARE(scene.image.size(), cv::Size(480, 360));
            QCOMPARE(scene.image.type(), CV_8UC3);
            statistics.addLabelMap(scene.labels);
        }
        QCOMPARE(statistics.unlabelledPixels(), 0ULL);
        for (int c = 0; c < 11; ++c)
            QVERIFY2(statistics.imagesContaining(c) >= 3, qPrintable(QStringLiteral("class %1 is too rare").arg(c)));
    }

    // Labels describe the pixels: sky is blue-ish, road grey, on average.
    void labelsMatchTheImage()
    {
        const auto scene = data::SyntheticDatasetGenerator().generate(3);
        const cv::Scalar sky = cv::mean(scene.image, scene.labels == 0);
        const cv::Scalar road = cv::mean(scene.image, scene.labels == 3);
        QVERIFY(sky[2] > sky[0] + 40);               // blue over red
        QVERIFY(std::abs(road[0] - road[2]) < 20);   // grey
    }

    void writesALoadableSplitProject()
    {
        QTemporaryDir dir;
        const data::Project project = data::SyntheticDatasetGenerator(45, 60).writeProject(dir.path().toStdString(), 10, 2);
        const data::Project loaded = data::Project::load(project.file());
        QCOMPARE(loaded, project);
        QCOMPARE(loaded.indicesOf(data::Split::Train).size(), std::size_t(6));
        QCOMPARE(loaded.indicesOf(data::Split::Val).size(), std::size_t(2));
        const auto scene = data::SyntheticDatasetGenerator(45, 60).generate(2 * 100003 + 4);
        QVERIFY(test::sameMat(data::readImageRgb(loaded.imagePath(4)), scene.image));
        QVERIFY(test::sameMat(data::readLabelMap(loaded.labelMapPath(4), loaded.schema()), scene.labels));
    }
};

QTEST_GUILESS_MAIN(TestSyntheticDatasetGenerator)
#include "test_SyntheticDatasetGenerator.moc"
