// Issue 46: the commands that write into folders the user also uses never touch a file they did
// not write. Each case makes the fault as it happens: the export into the folder an import came
// from, into another project's folder, a user's file named like a label folder, two writers of
// one output (the claim held by another writer), an import interrupted after its label folder was
// renamed into place, a name that is not UTF-8, and a failed command's new folders.
#include "TestFiles.h"
#include "data/formats/DatasetImporter.h"
#include "data/formats/ExportDestination.h"
#include "data/formats/ExportFormat.h"
#include "data/labels/ImageIO.h"
#include "data/formats/ImportJob.h"
#include "data/labels/LabelMapIO.h"
#include "data/formats/LabelmeImporter.h"
#include "data/project/ProjectLock.h"
#include "data/project/SyntheticDatasetGenerator.h"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace segstudio;
namespace fs = std::filesystem;

namespace {

std::size_t filesIn(const fs::path& folder)
{
    std::size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        count += entry.is_regular_file() ? 1 : 0;
    return count;
}

// images/<n>.png and labels/<n>.png index maps (three classes), as a user's dataset on disk.
void writeDataset(const fs::path& dir, int count)
{
    fs::create_directories(dir / "images");
    fs::create_directories(dir / "labels");
    for (int n = 0; n < count; ++n) {
        const std::string name = "frame_" + std::to_string(n) + ".png";
        data::writeImageRgb(dir / "images" / name, cv::Mat(12, 16, CV_8UC3, cv::Scalar(10 * n, 20, 30)));
        data::writeLabelMap(dir / "labels" / name, test::patternLabels(12, 16, 3), test::threeClasses());
    }
}

// A labelme file whose image is only embedded (imageData): its import writes <name>.images/.
void writeLabelmeWithEmbeddedImage(const fs::path& file)
{
    const nlohmann::json document = {{"imagePath", "gone.png"},
                                     {"imageData", test::pngAsBase64({12, 8})},
                                     {"imageHeight", 8},
                                     {"imageWidth", 12},
                                     {"shapes", {{{"label", "car"}, {"points", {{0, 0}, {11, 0}, {11, 7}}}}}}};
    test::writeBytes(file, document.dump());
}

data::Project importDataset(const fs::path& dir, const fs::path& projectFile, const data::ImportProgress& progress = {})
{
    return data::DatasetImporter::importIndexPngs(dir / "images", dir / "labels", projectFile, test::threeClasses(), 255, progress);
}

}  // namespace

class TestSafeWrites : public QObject {
    Q_OBJECT

private slots:
    // 46.1: exporting back into the folder the images came from deleted them.
    void anExportNeverGoesIntoTheFolderOfItsImages()
    {
        QTemporaryDir dir;
        const fs::path dataset = test::path(dir, "X");
        writeDataset(dataset, 4);
        const data::Project project = importDataset(dataset, test::path(dir, "p/p.segstudio"));
        for (const data::ExportFormat format : data::allExportFormats())
            test::expectDataError([&] { data::exportLabels(format, project, dataset); }, dataset, "holds the project's image");
        QCOMPARE(filesIn(dataset), std::size_t(8));
        for (std::size_t i = 0; i < project.size(); ++i)
            QVERIFY(fs::exists(project.imagePath(i)));
    }

    // 46.2: an export into another project's folder overwrote its label maps and class files.
    void anExportNeverWritesOverFilesItDidNotWrite()
    {
        QTemporaryDir dir;
        const fs::path e = test::path(dir, "E");
        data::SyntheticDatasetGenerator(24, 32).writeProject(e, 3, 1, "street");
        test::writeBytes(e / "classes.txt", "mine\n");
        const std::string before = test::readBytes(e / "classes.txt");
        writeDataset(test::path(dir, "other"), 2);
        const data::Project other = importDataset(test::path(dir, "other"), test::path(dir, "other/o.segstudio"));
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::IndexPngs, other, e); }, e,
                              "file(s) that no SegStudio export wrote");
        QCOMPARE(test::readBytes(e / "classes.txt"), before);
        QVERIFY(!fs::exists(e / "classes.json"));
        // A file, not a folder, is refused too.
        test::writeBytes(test::path(dir, "afile"), "x");
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::Coco, other, test::path(dir, "afile")); },
                              test::path(dir, "afile"), "is a file");
        // The project's own folder and its label folder are refused even when the export would be new there.
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::Coco, other, other.root()); }, other.root(),
                              "holds the project");
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::Coco, other, other.labelRoot() / "x"); },
                              other.labelRoot() / "x", "inside the project's label folder");
    }

    // An earlier export is replaced as a whole; a file the user added to it stops the next one.
    void anEarlierExportIsReplacedOnlyWhileItHoldsNothingElse()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 3);
        const data::Project project = importDataset(test::path(dir, "d"), test::path(dir, "d/p.segstudio"));
        const fs::path out = test::path(dir, "out");
        fs::create_directories(out);  // an empty folder the user made
        QCOMPARE(data::exportLabels(data::ExportFormat::IndexPngs, project, out), std::size_t(3));
        QVERIFY(fs::exists(out / "labels" / "frame_0.png"));
        QVERIFY(fs::exists(out / data::ExportDestination::kMarker));
        QCOMPARE(data::exportLabels(data::ExportFormat::ColourMasks, project, out), std::size_t(3));
        QVERIFY(!fs::exists(out / "labels"));  // the earlier export went as a whole
        QVERIFY(fs::exists(out / "masks" / "frame_0.png"));
        test::writeBytes(out / "notes.txt", "my notes");
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::IndexPngs, project, out); }, out / "notes.txt",
                              "was not written by the export");
        QCOMPARE(test::readBytes(out / "notes.txt"), std::string("my notes"));
        QVERIFY(fs::exists(out / "masks" / "frame_0.png"));
        QVERIFY(!fs::exists(test::path(dir, ".out.export-partial")));
    }

    // 46.7: a failed (here cancelled) export leaves neither a partial folder nor the folders it made.
    void aFailedExportLeavesNothing()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 3);
        const data::Project project = importDataset(test::path(dir, "d"), test::path(dir, "d/p.segstudio"));
        const fs::path out = test::path(dir, "NEW/sub/out");
        QVERIFY_THROWS_EXCEPTION(data::ImportCancelled, data::exportLabels(data::ExportFormat::Labelme, project, out,
                                                                           [](std::size_t done, std::size_t) { return done < 2; }));
        QVERIFY(!fs::exists(test::path(dir, "NEW")));
        QCOMPARE(filesIn(dir.path().toStdString()), filesIn(test::path(dir, "d")));
    }

    // What a killed export left (its staging folder, marked) is cleared by the next one; a folder
    // of that name that no export made is not.
    void aKilledExportsStagingIsClearedButNoOtherFolder()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 2);
        const data::Project project = importDataset(test::path(dir, "d"), test::path(dir, "d/p.segstudio"));
        const fs::path staging = test::path(dir, ".out.export-partial");
        test::writeBytes(staging / data::ExportDestination::kMarker, R"({"complete": false, "files": []})");
        test::writeBytes(staging / "labels" / "half.png", "half");
        QCOMPARE(data::exportLabels(data::ExportFormat::IndexPngs, project, test::path(dir, "out")), std::size_t(2));
        QVERIFY(!fs::exists(staging));
        test::writeBytes(test::path(dir, ".next.export-partial") / "mine.txt", "mine");
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::IndexPngs, project, test::path(dir, "next")); },
                              test::path(dir, ".next.export-partial"), "not made by a SegStudio export");
        QCOMPARE(test::readBytes(test::path(dir, ".next.export-partial") / "mine.txt"), std::string("mine"));
    }

    // 60.6: an export killed after it made its staging folder and before its marker was renamed
    // into place (the folder holds nothing, or the marker's temporary file): every retry was
    // refused as "not made by a SegStudio export". The retry finishes it.
    void anExportKilledBeforeItsMarkerWasInPlaceIsRetried()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 2);
        const data::Project project = importDataset(test::path(dir, "d"), test::path(dir, "d/p.segstudio"));
        const fs::path staging = test::path(dir, ".out.export-partial");
        test::writeBytes(staging / (std::string(data::ExportDestination::kMarker) + ".tmp"), "{\"segstudio_ex");
        QCOMPARE(data::exportLabels(data::ExportFormat::IndexPngs, project, test::path(dir, "out")), std::size_t(2));
        QVERIFY(!fs::exists(staging));
        fs::create_directories(test::path(dir, ".empty.export-partial"));  // killed right after its mkdir
        QCOMPARE(data::exportLabels(data::ExportFormat::IndexPngs, project, test::path(dir, "empty")), std::size_t(2));
        // Beside the temporary file, anything else is somebody's: refused as before.
        const fs::path other = test::path(dir, ".other.export-partial");
        test::writeBytes(other / (std::string(data::ExportDestination::kMarker) + ".tmp"), "{");
        test::writeBytes(other / "mine.txt", "mine");
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::IndexPngs, project, test::path(dir, "other")); }, other,
                              "not made by a SegStudio export");
        QCOMPARE(test::readBytes(other / "mine.txt"), std::string("mine"));
    }

    // 60.4: a hand edit in an earlier export's folder was silently lost to the next export (its
    // marker listed names only). The marker keeps each file's fingerprint: an edited file is the user's.
    void anEditInAnEarlierExportIsNeverReplaced()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 3);
        const data::Project project = importDataset(test::path(dir, "d"), test::path(dir, "d/p.segstudio"));
        const fs::path out = test::path(dir, "out");
        QCOMPARE(data::exportLabels(data::ExportFormat::IndexPngs, project, out), std::size_t(3));
        QCOMPARE(data::exportLabels(data::ExportFormat::IndexPngs, project, out), std::size_t(3));  // its own: replaced
        const std::string edited = test::readBytes(out / "labels" / "frame_1.png") + "edited";
        test::writeBytes(out / "labels" / "frame_1.png", edited);
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::ColourMasks, project, out); },
                              out / "labels" / "frame_1.png", "was changed since the export wrote it");
        QCOMPARE(test::readBytes(out / "labels" / "frame_1.png"), edited);
        QVERIFY(!fs::exists(test::path(dir, ".out.export-partial")));
    }

    // 60.7: export -o "" printed a raw file-system error.
    void anExportToAnEmptyPathSaysSo()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 1);
        const data::Project project = importDataset(test::path(dir, "d"), test::path(dir, "d/p.segstudio"));
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::IndexPngs, project, fs::path()); }, {},
                              "no destination folder given");
    }

    // 46.4: two writers of one export folder: the one that finds it claimed is refused, naming the holder.
    void aSecondExportToTheSameFolderIsRefused()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 2);
        const data::Project project = importDataset(test::path(dir, "d"), test::path(dir, "d/p.segstudio"));
        const fs::path out = test::path(dir, "out");
        data::ProjectLock holder(test::path(dir, ".out.export"));  // what the first export holds while it writes
        QCOMPARE(holder.acquire(), data::ProjectLock::Result::Acquired);
        test::expectDataError([&] { data::exportLabels(data::ExportFormat::Coco, project, out); }, out,
                              QStringLiteral("another export is writing it (process %1").arg(::getpid()));
        QVERIFY(!fs::exists(out));
    }

    // 46.3: an import replaced a user's file named <name>.labels by a folder.
    void anImportNeverReplacesAFileNamedLikeItsLabelFolder()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 2);
        const fs::path mine = test::path(dir, "P/mine.labels");
        test::writeBytes(mine, "road\ncar\nsky\n");
        test::expectDataError([&] { importDataset(test::path(dir, "d"), test::path(dir, "P/mine.segstudio")); }, mine,
                              "is a file of yours");
        QCOMPARE(test::readBytes(mine), std::string("road\ncar\nsky\n"));
        QVERIFY(!fs::exists(test::path(dir, "P/mine.segstudio")));
    }

    // 46.4: two imports into one project path: the second finds the file claimed and is refused.
    void aSecondImportIntoTheSameProjectIsRefused()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 2);
        const fs::path file = test::path(dir, "x.segstudio");
        data::ProjectLock holder(file);  // what the first import holds for its life
        QCOMPARE(holder.acquire(), data::ProjectLock::Result::Acquired);
        test::expectDataError([&] { importDataset(test::path(dir, "d"), file); }, file,
                              QStringLiteral("another import or is open in SegStudio (process %1").arg(::getpid()));
        QVERIFY(!fs::exists(file));
        QVERIFY(!fs::exists(test::path(dir, "x.labels")));
        holder.release();
        QCOMPARE(importDataset(test::path(dir, "d"), file).size(), std::size_t(2));
        test::expectDataError([&] { importDataset(test::path(dir, "d"), file); }, file, "exists already");
    }

    // 46.6: killed right after the label folder got its name, before the project file was saved:
    // the folder carries the import's marker, and the retry finishes instead of refusing.
    void anImportInterruptedAfterItsLabelFolderIsRetried()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 3);
        const fs::path file = test::path(dir, "x.segstudio");
        const fs::path left = test::path(dir, "x.labels");
        test::writeBytes(left / data::ImportJob::kMarker, "x.segstudio\n");
        test::writeBytes(left / "frame_0.png", "what the killed import wrote");
        const data::Project project = importDataset(test::path(dir, "d"), file);
        QCOMPARE(project.size(), std::size_t(3));
        QVERIFY(fs::exists(file));
        QVERIFY(!fs::exists(left / data::ImportJob::kMarker));  // the import is finished
        QVERIFY(test::sameMat(data::readLabelMap(project.labelMapPath(0), project.schema()), test::patternLabels(12, 16, 3)));
        // A marker naming another project file is not this import's: refused, kept.
        const fs::path other = test::path(dir, "y.labels");
        test::writeBytes(other / data::ImportJob::kMarker, "z.segstudio\n");
        test::writeBytes(other / "frame_0.png", "z's");
        test::expectDataError([&] { importDataset(test::path(dir, "d"), test::path(dir, "y.segstudio")); }, other,
                              "did not write");
        QCOMPARE(test::readBytes(other / "frame_0.png"), std::string("z's"));
    }

    // 46.6: a name that is not UTF-8 is named in the error (a project file cannot hold it).
    void aFileNameThatIsNotUtf8IsNamed()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 1);
        const fs::path odd = test::path(dir, "d/images") / std::string("m\xfcnster.png");
        fs::copy_file(test::path(dir, "d/images/frame_0.png"), odd);
        const fs::path file = test::path(dir, "x.segstudio");
        try {
            data::DatasetImporter::importImageFolder(test::path(dir, "d/images"), file, test::threeClasses());
            QFAIL("a name that is not UTF-8 was accepted");
        } catch (const data::DataError& error) {
            QCOMPARE(error.file(), odd.string());
            QVERIFY2(std::string(error.what()).find("not valid UTF-8") != std::string::npos, error.what());
        }
        QVERIFY(!fs::exists(file));
        QVERIFY(!fs::exists(test::path(dir, "x.labels")));
        fs::remove(odd);  // (QTemporaryDir cannot name it to remove it)
    }

    // labelme's embedded images go into <name>.images/ after the project file is claimed, with the
    // import's marker: what a killed import left there is cleared by the retry; another's is not.
    void aLabelmeImportsEmbeddedImagesFolderIsClaimedAndRetried()
    {
        QTemporaryDir dir;
        writeLabelmeWithEmbeddedImage(test::path(dir, "set/a.json"));
        const fs::path left = test::path(dir, "x.images");
        test::writeBytes(left / data::ImportJob::kMarker, "x.segstudio\n");
        test::writeBytes(left / "a.png", "half an image");
        const auto project = data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "x.segstudio"));
        QCOMPARE(project.size(), std::size_t(1));
        QCOMPARE(data::readImageRgb(project.imagePath(0)).size(), cv::Size(12, 8));
        QVERIFY(!fs::exists(left / data::ImportJob::kMarker));
        const fs::path other = test::path(dir, "y.images");
        test::writeBytes(other / data::ImportJob::kMarker, "z.segstudio\n");
        test::writeBytes(other / "a.png", "z's");
        test::expectDataError([&] { data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "y.segstudio")); },
                              other, "did not write");
        QCOMPARE(test::readBytes(other / "a.png"), std::string("z's"));
        // Claimed first: with the project file held by another import nothing is written.
        data::ProjectLock holder(test::path(dir, "w.segstudio"));
        QCOMPARE(holder.acquire(), data::ProjectLock::Result::Acquired);
        test::expectDataError([&] { data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "w.segstudio")); },
                              test::path(dir, "w.segstudio"), "another import");
        QVERIFY(!fs::exists(test::path(dir, "w.images")));
    }

    // 60.6: a labelme import killed after it made <name>.images/ and before its marker was renamed
    // in: the folder holds only the marker's temporary file, and every retry was refused.
    void aLabelmeImportKilledBeforeItsMarkerWasInPlaceIsRetried()
    {
        QTemporaryDir dir;
        writeLabelmeWithEmbeddedImage(test::path(dir, "set/a.json"));
        const fs::path left = test::path(dir, "x.images");
        test::writeBytes(left / (std::string(data::ImportJob::kMarker) + ".tmp"), "x.segst");
        const auto project = data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "x.segstudio"));
        QCOMPARE(project.size(), std::size_t(1));
        QCOMPARE(data::readImageRgb(project.imagePath(0)).size(), cv::Size(12, 8));
    }

    // 60.7: import images took a 0-byte ".png" (and a text file named .png) into the project.
    void anImageImportRefusesAFileThatIsNoImage()
    {
        QTemporaryDir dir;
        fs::create_directories(test::path(dir, "set"));
        data::writeImageRgb(test::path(dir, "set/good.png"), cv::Mat(12, 16, CV_8UC3, cv::Scalar(1, 2, 3)));
        test::writeBytes(test::path(dir, "set/empty.png"), "");
        try {
            data::DatasetImporter::importImageFolder(test::path(dir, "set"), test::path(dir, "p.segstudio"), test::threeClasses());
            QFAIL("a 0-byte .png was imported");
        } catch (const data::DataError& error) {
            QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(test::path(dir, "set/empty.png").string()));
        }
        QVERIFY(!fs::exists(test::path(dir, "p.segstudio")));
        test::writeBytes(test::path(dir, "set/empty.png"), "not an image at all");
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::DatasetImporter::importImageFolder(
                                                      test::path(dir, "set"), test::path(dir, "p.segstudio"), test::threeClasses()));
    }

    // 46.7: a failed import into NEW/sub/ leaves neither folder.
    void aFailedImportLeavesNoFolderItMade()
    {
        QTemporaryDir dir;
        writeDataset(test::path(dir, "d"), 3);
        QVERIFY_THROWS_EXCEPTION(data::ImportCancelled, importDataset(test::path(dir, "d"), test::path(dir, "NEW/sub/x.segstudio"),
                                                                      [](std::size_t done, std::size_t) { return done < 2; }));
        QVERIFY(!fs::exists(test::path(dir, "NEW")));
    }
};

QTEST_GUILESS_MAIN(TestSafeWrites)
#include "test_SafeWrites.moc"
