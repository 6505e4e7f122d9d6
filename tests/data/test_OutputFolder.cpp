// Issue 60.1: the folders predict and evaluate fill file by file. A command replaces only a file
// SegStudio wrote there and nobody changed since; never a user's file of the same name, never the
// project's label maps; and what a command killed between writing a file and recording it left
// is recognised by the retry.
#include "TestFiles.h"
#include "data/formats/DatasetImporter.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/OutputFolder.h"

#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/stat.h>

using namespace segstudio;
namespace fs = std::filesystem;

namespace {

// What a command writes: the file, then its record in the ledger.
void writeOutput(data::OutputFolder& out, const std::string& name, const std::string& bytes)
{
    test::writeBytes(out.path() / name, bytes);
    out.written(name);
}

data::Project smallProject(const fs::path& dir)
{
    fs::create_directories(dir / "images");
    fs::create_directories(dir / "labels");
    for (int n = 0; n < 2; ++n) {
        const std::string name = "frame_" + std::to_string(n) + ".png";
        data::writeImageRgb(dir / "images" / name, cv::Mat(12, 16, CV_8UC3, cv::Scalar(10 * n, 20, 30)));
        data::writeLabelMap(dir / "labels" / name, test::patternLabels(12, 16, 3), test::threeClasses());
    }
    return data::DatasetImporter::importIndexPngs(dir / "images", dir / "labels", dir / "p.segstudio", test::threeClasses(), 255);
}

}  // namespace

class TestOutputFolder : public QObject {
    Q_OBJECT

private slots:
    // predict -o <a folder of the user's PNGs of the same names> replaced them (rc 0).
    void aUsersFileOfTheSameNameIsNeverReplaced()
    {
        QTemporaryDir dir;
        const fs::path folder = test::path(dir, "mine");
        test::writeBytes(folder / "street.png", "my own picture");
        data::OutputFolder out(folder, nullptr, "predictions");
        test::expectDataError([&] { out.reserve({"other.png", "street.png", "street_overlay.png"}); }, folder / "street.png",
                              "not written here by SegStudio");
        QCOMPARE(test::readBytes(folder / "street.png"), std::string("my own picture"));
        QVERIFY(!fs::exists(folder / data::OutputFolder::kLedger));  // refused before anything was recorded
    }

    // Its own files a command replaces (a second predict of the same images), but not once a
    // person changed one since: the ledger's fingerprint no longer matches.
    void ownFilesAreReplacedUntilSomebodyEditsThem()
    {
        QTemporaryDir dir;
        const fs::path folder = test::path(dir, "out");
        {
            data::OutputFolder out(folder, nullptr, "predictions");
            out.reserve({"a.png", "b.png"});
            writeOutput(out, "a.png", "first a");
            writeOutput(out, "b.png", "first b");
        }
        {
            data::OutputFolder again(folder, nullptr, "predictions");
            again.reserve({"a.png", "b.png"});
            writeOutput(again, "a.png", "second a");
        }
        test::writeBytes(folder / "b.png", "edited by hand");
        data::OutputFolder third(folder, nullptr, "predictions");
        test::expectDataError([&] { third.reserve({"a.png", "b.png"}); }, folder / "b.png", "changed since");
        QCOMPARE(test::readBytes(folder / "b.png"), std::string("edited by hand"));
        // The same size and content, only touched: still not what SegStudio wrote (its time moved).
        const std::string fingerprintBefore = test::readBytes(folder / data::OutputFolder::kLedger);
        QVERIFY(fingerprintBefore.find("\"a.png\"") != std::string::npos);
        struct timespec times[2] = {{0, UTIME_OMIT}, {1, 0}};
        QCOMPARE(::utimensat(AT_FDCWD, (folder / "a.png").c_str(), times, 0), 0);
        test::expectDataError([&] { third.reserve({"a.png"}); }, folder / "a.png", "changed since");
    }

    // A command killed (SIGKILL) after a file reached its name but before its fingerprint was
    // recorded: the name was recorded before the write, so the retry takes the file as its own.
    void aFileWrittenButNotYetRecordedIsTheRetrysOwn()
    {
        QTemporaryDir dir;
        const fs::path folder = test::path(dir, "out");
        const pid_t child = ::fork();
        if (child == 0) {  // the command, killed at the named moment: no destructor, no cleanup
            data::OutputFolder killed(folder, nullptr, "predictions");
            killed.reserve({"a.png", "b.png"});
            writeOutput(killed, "a.png", "a");
            test::writeBytes(folder / "b.png", "b, not yet recorded");
            ::raise(SIGKILL);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        // A line torn by the kill mid-append is skipped, not taken for a record.
        std::ofstream(folder / data::OutputFolder::kLedger, std::ios::app) << "{\"file\": \"c.p";
        data::OutputFolder retry(folder, nullptr, "predictions");
        retry.reserve({"a.png", "b.png"});
        writeOutput(retry, "b.png", "b");
        QCOMPARE(test::readBytes(folder / "b.png"), std::string("b"));
    }

    // A command that reserved a name and ended without writing it (an image that failed) gives
    // the name its earlier record back: an edit of that file since is still caught.
    void anUnwrittenNameKeepsItsEarlierRecord()
    {
        QTemporaryDir dir;
        const fs::path folder = test::path(dir, "out");
        {
            data::OutputFolder first(folder, nullptr, "predictions");
            first.reserve({"a.png"});
            writeOutput(first, "a.png", "first a");
        }
        {
            data::OutputFolder failed(folder, nullptr, "predictions");
            failed.reserve({"a.png", "new.png"});
        }
        test::writeBytes(folder / "a.png", "edited by hand");
        test::writeBytes(folder / "new.png", "the user's, since");
        data::OutputFolder third(folder, nullptr, "predictions");
        test::expectDataError([&] { third.reserve({"a.png"}); }, folder / "a.png", "changed since");
        test::expectDataError([&] { third.reserve({"new.png"}); }, folder / "new.png", "not written here");
    }

    // A command runs for minutes after it reserved its names: a file the user puts there, or
    // changes, meanwhile is theirs and stops the write (checked again just before it).
    void aFileThatAppearsWhileTheCommandRunsIsTheUsers()
    {
        QTemporaryDir dir;
        const fs::path folder = test::path(dir, "out");
        data::OutputFolder out(folder, nullptr, "predictions");
        out.reserve({"a.png", "b.png"});
        out.requireFree({"a.png", "b.png"});
        writeOutput(out, "a.png", "a");
        test::writeBytes(folder / "b.png", "the user's, dropped in meanwhile");
        out.requireFree({"a.png"});  // its own, written
        test::expectDataError([&] { out.requireFree({"b.png"}); }, folder / "b.png", "appeared or changed while the command ran");
    }

    // predict / evaluate --predictions into the project's label folder replaced the ground truth.
    void neverTheProjectsLabelFolderNorItsImages()
    {
        QTemporaryDir dir;
        const data::Project project = smallProject(test::path(dir, "d"));
        test::expectDataError([&] { data::OutputFolder(project.labelRoot(), &project, "predictions"); }, project.labelRoot(),
                              "is the project's label folder");
        test::expectDataError([&] { data::OutputFolder(project.labelRoot() / "sub", &project, "predictions"); },
                              project.labelRoot() / "sub", "inside the project's label folder");
        test::expectDataError([&] { data::OutputFolder(test::path(dir, "d/images"), &project, "predictions"); },
                              test::path(dir, "d/images"), "holds the project's image");
        QVERIFY(!fs::exists(project.labelRoot() / "sub"));
        data::OutputFolder beside(test::path(dir, "d/predictions"), &project, "predictions");
        beside.reserve({"frame_0.png"});
    }

    // Two commands filling one folder at once: the second is refused, naming the first.
    void aSecondWriterIsRefusedNamingTheHolder()
    {
        QTemporaryDir dir;
        data::OutputFolder first(test::path(dir, "out"), nullptr, "predictions");
        test::expectDataError([&] { data::OutputFolder(test::path(dir, "out"), nullptr, "predictions"); }, first.path(),
                              "another command is writing predictions into it (process");
    }

    void anEmptyPathOrAFileIsNamed()
    {
        QTemporaryDir dir;
        test::expectDataError([&] { data::OutputFolder({}, nullptr, "predictions"); }, {}, "the path is empty");
        test::writeBytes(test::path(dir, "file"), "x");
        test::expectDataError([&] { data::OutputFolder(test::path(dir, "file"), nullptr, "predictions"); }, test::path(dir, "file"),
                              "is a file, not a folder");
    }
};

QTEST_GUILESS_MAIN(TestOutputFolder)
#include "test_OutputFolder.moc"
