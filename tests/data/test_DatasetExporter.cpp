#include "TestFiles.h"
#include "data/formats/DatasetExporter.h"
#include "data/formats/DatasetImporter.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace segstudio;
namespace fs = std::filesystem;

class TestDatasetExporter : public QObject {
    Q_OBJECT

private:
    // Two labelled images and one without a label map.
    static data::Project makeProject(const QTemporaryDir& dir)
    {
        data::Project project(test::path(dir, "p.segstudio"), test::threeClasses());
        fs::create_directories(project.labelRoot());
        fs::create_directories(test::path(dir, "images"));
        for (int n = 0; n < 3; ++n) {
            const fs::path image = test::path(dir, "images") / ("img" + std::to_string(n) + ".png");
            data::writeImageRgb(image, cv::Mat(6, 8, CV_8UC3, cv::Scalar(n, n, n)));
            const std::size_t index = project.addImage(image);
            if (n < 2)
                data::writeLabelMap(project.labelMapPath(index), test::patternLabels(6, 8, 3 - n), project.schema());
        }
        project.save();
        return project;
    }

private slots:
    void indexPngsRoundTrip()
    {
        QTemporaryDir dir;
        const data::Project project = makeProject(dir);
        const fs::path out = test::path(dir, "export");
        QCOMPARE(data::DatasetExporter::exportIndexPngs(project, out), std::size_t(2));
        QVERIFY(test::sameMat(data::readLabelMap(out / "labels/img1.png", project.schema()), test::patternLabels(6, 8, 2)));
        QVERIFY(!fs::exists(out / "labels/img2.png"));
        const auto classes = nlohmann::json::parse(test::readBytes(out / "classes.json"));
        QCOMPARE(data::ClassSchema::fromJson(classes), project.schema());
        QCOMPARE(test::readBytes(out / "classes.txt"), std::string("0 road\n1 car\n2 sky\n"));
    }

    void colourMasksImportBackToTheSameLabels()
    {
        QTemporaryDir dir;
        const data::Project project = makeProject(dir);
        const fs::path out = test::path(dir, "export");
        QCOMPARE(data::DatasetExporter::exportColorMasks(project, out), std::size_t(2));
        fs::remove(test::path(dir, "images/img2.png"));  // the image without labels has no mask
        const data::Project again = data::DatasetImporter::importColorMasks(
            test::path(dir, "images"), out / "masks", test::path(dir, "again/q.segstudio"), project.schema());
        for (std::size_t i = 0; i < again.size(); ++i)
            QVERIFY(test::sameMat(data::readLabelMap(again.labelMapPath(i), again.schema()),
                                  data::readLabelMap(project.labelMapPath(i), project.schema())));
    }
};

QTEST_GUILESS_MAIN(TestDatasetExporter)
#include "test_DatasetExporter.moc"
