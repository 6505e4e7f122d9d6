// Export -> import in each format gives back the label maps: exactly for COCO's RLE, Cityscapes and
// CVAT masks, and >= 99.5 % of the pixels for labelme's simplified polygons, on street scenes with
// all 11 classes, unlabelled holes inside objects and an image left unlabelled.
#include "TestFiles.h"
#include "data/formats/CocoImporter.h"
#include "data/formats/ExportFormat.h"
#include "data/formats/FormatExporter.h"
#include "data/labels/LabelMapIO.h"
#include "data/formats/LabelmeImporter.h"
#include "data/formats/RasterFormatImporter.h"
#include "data/project/SyntheticDatasetGenerator.h"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <map>
#include <opencv2/imgproc.hpp>

using namespace segstudio;
namespace fs = std::filesystem;

namespace {

// What the name of an exported image's label map was: the project's label-map stem.
std::string baseName(const fs::path& image)
{
    std::string stem = image.stem().string();
    const std::string suffix = "_leftImg8bit";
    if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
        stem.resize(stem.size() - suffix.size());
    return stem;
}

struct Labelled {
    cv::Mat labels;
    data::Split split;
};

std::map<std::string, Labelled> labelledOf(const data::Project& project)
{
    std::map<std::string, Labelled> maps;
    for (std::size_t i = 0; i < project.size(); ++i)
        if (fs::exists(project.labelMapPath(i)))
            maps[baseName(project.imagePath(i))] = {data::readLabelMap(project.labelMapPath(i), project.schema()),
                                                    project.entry(i).split};
    return maps;
}

}  // namespace

class TestFormatRoundTrip : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    data::Project m_project;
    std::map<std::string, Labelled> m_original;

    void compareWith(const data::Project& again, double minimumAgreement, bool splitsKept)
    {
        QCOMPARE(again.schema().size(), m_project.schema().size());
        for (const data::LabelClass& c : m_project.schema().classes())
            QCOMPARE(again.schema().find(c.id)->name, c.name);
        const auto back = labelledOf(again);
        QCOMPARE(back.size(), m_original.size());
        for (const auto& [name, original] : m_original) {
            QVERIFY2(back.count(name), name.c_str());
            const cv::Mat& labels = back.at(name).labels;
            QCOMPARE(labels.size(), original.labels.size());
            const double agreement = double(cv::countNonZero(labels == original.labels)) / original.labels.total();
            QVERIFY2(agreement >= minimumAgreement, (name + ": " + std::to_string(agreement)).c_str());
            if (splitsKept)
                QVERIFY(back.at(name).split == original.split);
        }
    }

private slots:
    void initTestCase()
    {
        const data::SyntheticDatasetGenerator generator(120, 160);
        m_project = generator.writeProject(m_dir.path().toStdString(), 5, 3, "street");
        // Unlabelled holes inside objects, a ring of unlabelled around an island, one image unlabelled.
        for (std::size_t i = 0; i < 4; ++i) {
            cv::Mat labels = data::readLabelMap(m_project.labelMapPath(i), m_project.schema());
            cv::circle(labels, {40 + 20 * int(i), 60}, 9, cv::Scalar(255), cv::FILLED);
            cv::circle(labels, {40 + 20 * int(i), 60}, 4, cv::Scalar(int(i) % 11), cv::FILLED);
            labels(cv::Rect(0, 0, 7, 5)).setTo(255);
            data::writeLabelMap(m_project.labelMapPath(i), labels, m_project.schema());
        }
        fs::remove(m_project.labelMapPath(4));
        m_project.setStatus(4, data::LabelStatus::Unlabelled);
        m_project.save();
        m_original = labelledOf(m_project);
        QCOMPARE(m_original.size(), std::size_t(4));
    }

    void coco()
    {
        const fs::path out = test::path(m_dir, "coco");
        QCOMPARE(data::FormatExporter::exportCoco(m_project, out), std::size_t(4));
        const auto again = data::CocoImporter::import({out / "annotations.json", m_project.root(), {}, {}, {}},
                                                      test::path(m_dir, "coco.segstudio"));
        compareWith(again, 1.0, false);
        QVERIFY(again.schema().find(3)->color == m_project.schema().find(3)->color);
    }

    // Issue 60.11: a background class stays out of a COCO export (categories and annotations),
    // and `import coco --background` reads it back: every labelled pixel as it was.
    void cocoWithABackgroundClass()
    {
        const std::string background = m_project.schema().find(0)->name;
        const fs::path out = test::path(m_dir, "coco-background");
        data::ExportOptions options;
        options.cocoBackground = background;
        QCOMPARE(data::exportLabels(data::ExportFormat::Coco, m_project, out, {}, options), std::size_t(4));
        const auto file = nlohmann::json::parse(test::readBytes(out / "annotations.json"));
        QCOMPARE(file["categories"].size(), m_project.schema().size() - 1);
        for (const auto& category : file["categories"])
            QVERIFY(category["name"] != background);
        for (const auto& annotation : file["annotations"])
            QVERIFY(annotation["category_id"] != 1);
        const auto again = data::CocoImporter::import({out / "annotations.json", m_project.root(), {}, background, {}},
                                                      test::path(m_dir, "coco-background.segstudio"));
        QCOMPARE(again.schema().find(0)->name, background);
        const auto back = labelledOf(again);
        for (const auto& [name, original] : m_original) {
            const cv::Mat labelled = original.labels != 255;
            QCOMPARE(cv::countNonZero((back.at(name).labels != original.labels) & labelled), 0);
        }
        options.cocoBackground = "no such class";
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::Coco, m_project, test::path(m_dir, "x"), {}, options); },
                              m_project.file(), "has no class named 'no such class'");
    }

    void cityscapes()
    {
        const fs::path out = test::path(m_dir, "cityscapes");
        QCOMPARE(data::FormatExporter::exportCityscapes(m_project, out), std::size_t(4));
        compareWith(data::RasterFormatImporter::importCityscapes(out, test::path(m_dir, "cs.segstudio")), 1.0, true);
    }

    void cvat()
    {
        const fs::path out = test::path(m_dir, "cvat");
        QCOMPARE(data::FormatExporter::exportCvatMasks(m_project, out), std::size_t(4));
        compareWith(data::RasterFormatImporter::importCvatMasks(out, test::path(m_dir, "cvat.segstudio")), 1.0, true);
    }

    void labelme()
    {
        const fs::path out = test::path(m_dir, "labelme");
        QCOMPARE(data::FormatExporter::exportLabelme(m_project, out), std::size_t(4));
        const auto shapes = nlohmann::json::parse(test::readBytes(out / (baseName(m_project.imagePath(0)) + ".json")))["shapes"];
        bool flaggedHole = false;
        for (const auto& shape : shapes)
            flaggedHole |= shape["label"] == "__ignore__" && shape["flags"].value("hole", false);
        QVERIFY(flaggedHole);
        compareWith(data::LabelmeImporter::import({out, out / "labels.txt", {}}, test::path(m_dir, "labelme.segstudio")), 0.995,
                    false);
    }

    // The one list of formats the CLI's --format and File > Export share: names round-trip and
    // each writes its own layout.
    void everyExportFormatByName()
    {
        const std::map<std::string, std::string> written{{"index-png", "labels"}, {"color-masks", "masks"},
                                                         {"coco", "annotations.json"}, {"cityscapes", "gtFine"},
                                                         {"labelme", "labels.txt"}, {"cvat", "labelmap.txt"}};
        QCOMPARE(data::allExportFormats().size(), written.size());
        for (const data::ExportFormat format : data::allExportFormats()) {
            const std::string name = data::nameOf(format);
            QVERIFY2(written.count(name), name.c_str());
            QVERIFY(data::exportFormatNamed(name) == format);
            const fs::path out = test::path(m_dir, "by-name") / name;
            QCOMPARE(data::exportLabels(format, m_project, out), std::size_t(4));
            QVERIFY2(fs::exists(out / written.at(name)), name.c_str());
        }
        QVERIFY(!data::exportFormatNamed("pascal"));
    }

    void cvatRefusesTwoClassesOfOneColour()
    {
        data::Project clash = m_project;
        data::ClassSchema schema = clash.schema();
        data::LabelClass car = *schema.find(8);
        car.color = schema.find(3)->color;
        schema.update(car);
        clash.setSchema(schema);
        test::expectDataError([&] { data::FormatExporter::exportCvatMasks(clash, test::path(m_dir, "clash")); }, clash.file(),
                              "class 'Car' has the colour of 'Road'");
    }
};

QTEST_GUILESS_MAIN(TestFormatRoundTrip)
#include "test_FormatRoundTrip.moc"
