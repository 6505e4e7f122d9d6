#include "TestFiles.h"

#include "data/project/DatasetRelabeler.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/Project.h"
#include "data/project/RelabelTransaction.h"

#include <QtTest>

#include <map>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace segstudio;
using namespace segstudio::data;
using segstudio::test::readBytes;
namespace fs = std::filesystem;

namespace {

// Four images with label maps of classes 0..2 (one map without class 1), one image without a map.
Project makeProject(const QTemporaryDir& dir)
{
    const fs::path root = dir.path().toStdString();
    Project project(root / "p.segstudio", test::threeClasses());
    for (int i = 0; i < 5; ++i) {
        const std::string name = "img" + std::to_string(i) + ".png";
        test::writeBytes(root / name, "not read here");
        const std::size_t index = project.addImage(root / name);
        if (i == 4)
            continue;  // no label map yet
        cv::Mat labels = test::patternLabels(12, 16, i == 3 ? 1 : 3);  // map 3 holds only class 0
        fs::create_directories(project.labelMapPath(index).parent_path());
        writeLabelMap(project.labelMapPath(index), labels, project.schema());
    }
    project.save();
    return project;
}

std::map<std::size_t, std::string> mapBytes(const Project& project)
{
    std::map<std::size_t, std::string> bytes;
    for (std::size_t i = 0; i < project.size(); ++i)
        bytes[i] = fs::exists(project.labelMapPath(i)) ? readBytes(project.labelMapPath(i)) : std::string("<none>");
    return bytes;
}

ClassSchema without(ClassSchema schema, int id)
{
    schema.remove(id);
    return schema;
}

DatasetRelabeler merging(int from, int to)
{
    DatasetRelabeler relabeler;
    relabeler.map(from, to);
    return relabeler;
}

}  // namespace

class TestRelabelTransaction : public QObject {
    Q_OBJECT

private slots:
    void applyUndoRedoGiveExactBytes()
    {
        QTemporaryDir dir;
        const Project project = makeProject(dir);
        const auto original = mapBytes(project);
        RelabelTransaction step(RelabelTransaction::undoRoot(project.file()) / "merge");
        const auto applied = step.apply(project, merging(1, 2), project.schema(), without(project.schema(), 1));
        QCOMPARE(applied.changed, (std::vector<std::size_t>{0, 1, 2}));  // map 3 has no class 1, image 4 no map
        QVERIFY(applied.pixels > 0);
        const auto merged = mapBytes(project);
        QCOMPARE(merged.at(3), original.at(3));
        const cv::Mat labels = readLabelMap(project.labelMapPath(0), without(project.schema(), 1));
        QCOMPARE(cv::countNonZero(labels == 1), 0);

        const auto undone = step.undo();
        QCOMPARE(undone.changed.size(), std::size_t(3));
        QVERIFY(undone.kept.empty());
        QCOMPARE(mapBytes(project), original);
        step.redo(project);
        QCOMPARE(mapBytes(project), merged);
        step.undo();
        QCOMPARE(mapBytes(project), original);
    }

    void undoKeepsAMapLabelledSince()
    {
        QTemporaryDir dir;
        const Project project = makeProject(dir);
        RelabelTransaction step(RelabelTransaction::undoRoot(project.file()) / "delete");
        const ClassSchema after = without(project.schema(), 2);
        step.apply(project, merging(2, kUnlabelled), project.schema(), after);
        // The user paints image 1 after the delete: that work must survive the undo.
        writeLabelMap(project.labelMapPath(1), cv::Mat(12, 16, CV_8UC1, cv::Scalar(0)), after);
        const std::string painted = readBytes(project.labelMapPath(1));
        const auto undone = step.undo();
        QCOMPARE(undone.kept, (std::vector<std::size_t>{1}));
        QCOMPARE(readBytes(project.labelMapPath(1)), painted);
    }

    void redoRelabelsAMapLabelledAfterTheUndo()
    {
        QTemporaryDir dir;
        const Project project = makeProject(dir);
        RelabelTransaction step(RelabelTransaction::undoRoot(project.file()) / "merge");
        const ClassSchema after = without(project.schema(), 1);
        step.apply(project, merging(1, 0), project.schema(), after);
        step.undo();
        // Class 1 is back, and the user paints it into the map that had none.
        writeLabelMap(project.labelMapPath(3), cv::Mat(12, 16, CV_8UC1, cv::Scalar(1)), project.schema());
        step.redo(project);
        QCOMPARE(cv::countNonZero(readLabelMap(project.labelMapPath(3), after) == 0), 12 * 16);
    }

    void aMapWithoutTheClassIsNotRewritten()
    {
        QTemporaryDir dir;
        const Project project = makeProject(dir);
        // Not rewritten: the same file (inode; a rewrite renames a new one over it) with the same
        // bytes; a timestamp could not see a rewrite within its resolution.
        struct stat before {};
        QCOMPARE(::stat(project.labelMapPath(3).c_str(), &before), 0);
        const std::string bytes = readBytes(project.labelMapPath(3));
        RelabelTransaction step(RelabelTransaction::undoRoot(project.file()) / "merge");
        step.apply(project, merging(1, 2), project.schema(), without(project.schema(), 1));
        struct stat after {};
        QCOMPARE(::stat(project.labelMapPath(3).c_str(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(readBytes(project.labelMapPath(3)), bytes);
        QVERIFY(!fs::exists(project.labelMapPath(4)));  // no map: skipped, not created
    }

    // A damaged map stops the step before any map is replaced, with an error naming it.
    void aDamagedMapIsNamedAndNothingChanges()
    {
        QTemporaryDir dir;
        const Project project = makeProject(dir);
        test::writeBytes(project.labelMapPath(2), "not a png");
        const auto original = mapBytes(project);
        RelabelTransaction step(RelabelTransaction::undoRoot(project.file()) / "merge");
        test::expectDataError([&] { step.apply(project, merging(0, 2), project.schema(), without(project.schema(), 0)); },
                              project.labelMapPath(2), QString());
        step.undo();
        QCOMPARE(mapBytes(project), original);
    }

    void stoppedBeforeReplacingChangesNothing()
    {
        QTemporaryDir dir;
        const Project project = makeProject(dir);
        const auto original = mapBytes(project);
        RelabelTransaction step(RelabelTransaction::undoRoot(project.file()) / "merge");
        const auto outcome = step.apply(project, merging(1, 2), project.schema(), without(project.schema(), 1),
                                        [](std::size_t done, std::size_t) { return done < 2; });
        QVERIFY(outcome.stopped);
        QVERIFY(outcome.changed.empty());
        QCOMPARE(mapBytes(project), original);
    }

    // A real crash: a child process runs the merge and dies with _exit (no destructor, no flush of
    // anything but what was written) while replacing maps, or after saving the project file but
    // before settling. The next start rolls the whole step back.
    void crashMidMergeIsRolledBackOnTheNextStart_data()
    {
        QTest::addColumn<int>("crashAt");  // progress count in phase 2; -1: after the project save
        QTest::newRow("while replacing maps") << 1;  // one map replaced, two to go
        QTest::newRow("after the project file was saved") << -1;
    }

    void crashMidMergeIsRolledBackOnTheNextStart()
    {
        QFETCH(int, crashAt);
        QTemporaryDir dir;
        const Project project = makeProject(dir);
        const auto original = mapBytes(project);
        const std::string projectBytes = readBytes(project.file());
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            Project own = project;
            RelabelTransaction step(RelabelTransaction::undoRoot(own.file()) / "merge");
            const ClassSchema after = without(own.schema(), 1);
            step.apply(own, merging(1, 2), own.schema(), after, [crashAt](std::size_t done, std::size_t total) {
                if (crashAt >= 0 && done == total / 2 + std::size_t(crashAt))
                    _exit(3);
                return true;
            });
            own.setSchema(after);
            own.save();
            _exit(4);  // crashed before settle()
        }
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), crashAt >= 0 ? 3 : 4);
        if (crashAt >= 0)
            QVERIFY2(mapBytes(project) != original, "the crash came before any map was replaced");

        const auto recovered = RelabelTransaction::recoverInterrupted(project.file());
        QCOMPARE(recovered.size(), std::size_t(1));
        QCOMPARE(mapBytes(project), original);
        QCOMPARE(readBytes(project.file()), projectBytes);
        QVERIFY(fs::is_empty(RelabelTransaction::undoRoot(project.file())));
    }

    void settledStepsAreClearedNotRolledBack()
    {
        QTemporaryDir dir;
        Project project = makeProject(dir);
        RelabelTransaction step(RelabelTransaction::undoRoot(project.file()) / "merge");
        const ClassSchema after = without(project.schema(), 1);
        step.apply(project, merging(1, 2), project.schema(), after);
        project.setSchema(after);
        project.save();
        step.settle();
        const auto merged = mapBytes(project);
        QVERIFY(RelabelTransaction::recoverInterrupted(project.file()).empty());
        QCOMPARE(mapBytes(project), merged);
        QCOMPARE(Project::load(project.file()).schema(), after);
        QVERIFY(!fs::exists(step.folder()));
    }
};

QTEST_APPLESS_MAIN(TestRelabelTransaction)
#include "test_RelabelTransaction.moc"
