#include "TestFiles.h"
#include "data/labels/DataError.h"
#include "data/project/Project.h"

#include <QtTest>

using namespace segstudio;
namespace fs = std::filesystem;

class TestProject : public QObject {
    Q_OBJECT

private:
    static data::Project sampleProject(const fs::path& file)
    {
        data::Project project(file, test::threeClasses());
        project.addImage(file.parent_path() / "images/a.png", data::Split::Train);
        project.addImage("images/b.jpg", data::Split::Val);
        project.addImage("other/a.png");  // same stem: its label map must get another name
        project.setStatus(1, data::LabelStatus::Reviewed);
        return project;
    }

private slots:
    void roundTripKeepsEverythingAndBytes()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "p.segstudio");
        const data::Project project = sampleProject(file);
        project.save();
        const data::Project loaded = data::Project::load(file);
        QCOMPARE(loaded, project);
        QCOMPARE(loaded.entry(0).image, std::string("images/a.png"));
        QCOMPARE(loaded.entry(2).labelMap, std::string("a_2.png"));
        const std::string firstBytes = test::readBytes(file);
        loaded.save();
        QCOMPARE(test::readBytes(file), firstBytes);
    }

    void pathsResolveInsideTheProject()
    {
        QTemporaryDir dir;
        const data::Project project = sampleProject(test::path(dir, "p.segstudio"));
        QCOMPARE(project.imagePath(1), test::path(dir, "images/b.jpg"));
        QCOMPARE(project.labelMapPath(1), test::path(dir, "labels/b.png"));
        QCOMPARE(project.indexOf("images/b.jpg").value(), std::size_t(1));
        QCOMPARE(project.indicesOf(data::Split::Train), std::vector<std::size_t>{0});
    }

    // `segstudio-train predict -P camvid.segstudio IMAGE` from the project's folder threw
    // "cannot make absolute path" (the root of a bare file name is empty).
    void aProjectOpenedByItsBareNameFindsItsImages()
    {
        QTemporaryDir dir;
        sampleProject(test::path(dir, "p.segstudio")).save();
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        std::optional<std::size_t> byAbsolutePath, byRelativePath;
        try {
            const data::Project project = data::Project::load("p.segstudio");
            byAbsolutePath = project.indexOfPath(test::path(dir, "images/b.jpg"));
            byRelativePath = project.indexOfPath("images/b.jpg");
        } catch (...) {
        }
        QVERIFY(QDir::setCurrent(before));
        QCOMPARE(byAbsolutePath, std::optional<std::size_t>(1));
        QCOMPARE(byRelativePath, std::optional<std::size_t>(1));
    }

    void addingADuplicateIsRefused()
    {
        QTemporaryDir dir;
        data::Project project = sampleProject(test::path(dir, "p.segstudio"));
        QVERIFY_THROWS_EXCEPTION(data::DataError, project.addImage("images/b.jpg"));
        QCOMPARE(project.size(), std::size_t(3));
    }

    void badFilesAreRefusedWithTheirName_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("expected");
        const QString images = QStringLiteral(R"("classes":[{"id":0,"name":"a","color":"#000000"}],"labelDir":"labels")");
        QTest::newRow("empty") << QString() << "empty";
        QTest::newRow("truncated") << R"({"format":"segstudio-project","version":1,"images":[)" << "truncated or not JSON";
        QTest::newRow("not json") << "hello world" << "truncated or not JSON";
        QTest::newRow("not a project") << R"({"hello":1})" << "not a SegStudio project";
        QTest::newRow("newer version") << R"({"format":"segstudio-project","version":7,)" + images + R"(,"images":[]})" << "newer SegStudio";
        QTest::newRow("duplicate image")
            << R"({"format":"segstudio-project","version":1,)" + images
                   + R"(,"images":[{"image":"x.png","labels":"x.png"},{"image":"x.png","labels":"y.png"}]})"
            << "listed twice";
        QTest::newRow("label map escapes")
            << R"({"format":"segstudio-project","version":1,)" + images + R"(,"images":[{"image":"x.png","labels":"../../evil.png"}]})"
            << "outside the project's label folder";
        QTest::newRow("absolute label map")
            << R"({"format":"segstudio-project","version":1,)" + images + R"(,"images":[{"image":"x.png","labels":"/tmp/evil.png"}]})"
            << "outside the project's label folder";
        QTest::newRow("bad split")
            << R"({"format":"segstudio-project","version":1,)" + images + R"(,"images":[{"image":"x.png","labels":"x.png","split":"holdout"}]})"
            << "unknown split";
    }

    void badFilesAreRefusedWithTheirName()
    {
        QFETCH(QString, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "bad.segstudio");
        test::writeBytes(file, content.toStdString());
        test::expectDataError([&] { data::Project::load(file); }, file, expected);
    }

    void missingFileIsNamed()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "nothing.segstudio");
        test::expectDataError([&] { data::Project::load(file); }, file, QStringLiteral("not found"));
    }

    void failedSaveLeavesTheOldFileAndNoTempFile()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "p.segstudio");
        data::Project project = sampleProject(file);
        project.save();
        const std::string before = test::readBytes(file);

        // A folder squatting on the temp file's target makes the final rename fail.
        const fs::path blocked = test::path(dir, "blocked.segstudio");
        fs::create_directories(blocked / "child");
        data::Project other = sampleProject(blocked);
        QVERIFY_THROWS_EXCEPTION(data::DataError, other.save());
        for (const auto& item : fs::directory_iterator(dir.path().toStdString()))
            QVERIFY2(item.path().extension() != ".partial", item.path().c_str());
        QCOMPARE(test::readBytes(file), before);
    }

    void saveAsRebasesImagePaths()
    {
        QTemporaryDir dir;
        data::Project project = sampleProject(test::path(dir, "p.segstudio"));
        fs::create_directories(test::path(dir, "sub"));
        const fs::path image = project.imagePath(0);
        project.saveAs(test::path(dir, "sub/q.segstudio"));
        QCOMPARE(project.entry(0).image, std::string("../images/a.png"));
        QCOMPARE(project.imagePath(0), image);
        QCOMPARE(data::Project::load(test::path(dir, "sub/q.segstudio")), project);
    }
};

QTEST_GUILESS_MAIN(TestProject)
#include "test_Project.moc"
