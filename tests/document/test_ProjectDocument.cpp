#include "document/ProjectDocument.h"

#include "data/labels/LabelMapIO.h"
#include "data/project/Project.h"
#include "data/project/RelabelTransaction.h"
#include "run/AtomicFile.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>

#include <opencv2/imgcodecs.hpp>
#include <QtTest>

#include <QTimer>
#include <atomic>
#include <functional>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>
#include <map>

using namespace segstudio;
using segstudio::document::ProjectDocument;
namespace fs = std::filesystem;

namespace {

data::ClassSchema fourClasses()
{
    return data::ClassSchema({{0, "road", {128, 64, 128}, "1"},
                              {1, "car", {64, 0, 128}, "2"},
                              {2, "sky", {128, 128, 128}, ""},
                              {3, "tree", {128, 128, 0}, ""}});
}

// Six images, five with label maps striped in classes 0..3, the project file saved.
std::unique_ptr<ProjectDocument> makeDocument(const QTemporaryDir& dir)
{
    const fs::path root = dir.path().toStdString();
    data::Project project(root / "p.segstudio", fourClasses());
    for (int i = 0; i < 6; ++i) {
        const fs::path image = root / ("img" + std::to_string(i) + ".png");
        run::writeFileAtomically(image, std::string("pixels"));
        const std::size_t index = project.addImage(image, i % 2 ? data::Split::Train : data::Split::Val);
        if (i == 5)
            continue;
        cv::Mat labels(10, 14, CV_8UC1);
        for (int y = 0; y < labels.rows; ++y)
            labels.row(y).setTo(y == 0 ? 255 : (y + i) % 4);
        fs::create_directories(project.labelMapPath(index).parent_path());
        data::writeLabelMap(project.labelMapPath(index), labels, project.schema());
    }
    project.save();
    auto document = ProjectDocument::open(project.file());
    document->setAutosaveDelay(0);
    return document;
}

// What an edit must give back exactly: the project file and every label map.
std::map<std::string, std::string> snapshot(ProjectDocument& document)
{
    document.waitForIdle();
    if (document.isModified())
        document.save();
    std::map<std::string, std::string> files;
    files["project"] = run::readFile(document.project().file());
    const fs::path labels = document.project().labelRoot();
    for (const auto& entry : fs::directory_iterator(labels))
        files[entry.path().filename().string()] = run::readFile(entry.path());
    return files;
}

}  // namespace

class TestProjectDocument : public QObject {
    Q_OBJECT

private slots:
    // Each command: do, undo, redo give the exact bytes of the project file and label maps.
    void eachCommandUndoesAndRedoesToTheByte_data()
    {
        QTest::addColumn<QString>("edit");
        for (const char* edit : {"split", "status", "add images", "remove images", "add class", "rename class",
                                 "recolour class", "merge classes", "delete class"})
            QTest::newRow(edit) << QString::fromLatin1(edit);
    }

    void eachCommandUndoesAndRedoesToTheByte()
    {
        QFETCH(QString, edit);
        QTemporaryDir dir;
        auto document = makeDocument(dir);
        ProjectDocument& doc = *document;
        const fs::path root = dir.path().toStdString();
        const std::map<QString, std::function<bool()>> edits = {
            {QStringLiteral("split"), [&] { return doc.setSplit({0, 2, 3}, data::Split::Test); }},
            {QStringLiteral("status"), [&] { return doc.setStatus({1, 4}, data::LabelStatus::Reviewed); }},
            {QStringLiteral("add images"),
             [&] {
                 run::writeFileAtomically(root / "new.png", std::string("x"));
                 return doc.addImages({root / "new.png", root / "img0.png"}, data::Split::Train) == 1;  // img0: a duplicate
             }},
            {QStringLiteral("remove images"), [&] { return doc.removeImages({4, 1, 2}); }},
            {QStringLiteral("add class"), [&] { return doc.addClass(QStringLiteral("bus"), {1, 2, 3}) == 4; }},
            {QStringLiteral("rename class"), [&] { return doc.renameClass(2, QStringLiteral("heaven")); }},
            {QStringLiteral("recolour class"), [&] { return doc.recolourClass(3, {9, 9, 9}); }},
            {QStringLiteral("merge classes"), [&] { return doc.mergeClasses(1, 3); }},
            {QStringLiteral("delete class"), [&] { return doc.deleteClass(2); }},
        };
        // What each edit was asked to do, read back from the project and its maps (issue 27.2:
        // a change of bytes alone would pass for any change).
        const auto mapsHold = [&](int value) {
            for (std::size_t i = 0; i < doc.size(); ++i) {
                const fs::path file = doc.project().labelMapPath(i);
                const cv::Mat map = fs::exists(file) ? data::readLabelMap(file, fourClasses()) : cv::Mat();
                if (!map.empty() && cv::countNonZero(map == value) > 0)
                    return true;
            }
            return false;
        };
        const auto imageNames = [&] {
            std::vector<std::string> names;
            for (const auto& entry : doc.project().entries())
                names.push_back(fs::path(entry.image).filename().string());
            return names;
        };
        const std::map<QString, std::function<bool()>> done = {
            {QStringLiteral("split"),
             [&] {
                 const auto& e = doc.project().entries();
                 return e[0].split == data::Split::Test && e[2].split == data::Split::Test && e[3].split == data::Split::Test &&
                        e[1].split == data::Split::Train && e[4].split == data::Split::Val;
             }},
            {QStringLiteral("status"),
             [&] {
                 const auto& e = doc.project().entries();
                 return e[1].status == data::LabelStatus::Reviewed && e[4].status == data::LabelStatus::Reviewed &&
                        e[0].status != data::LabelStatus::Reviewed;
             }},
            {QStringLiteral("add images"),
             [&] { return imageNames().size() == 7 && imageNames().back() == "new.png" && doc.project().entries().back().split == data::Split::Train; }},
            {QStringLiteral("remove images"), [&] { return imageNames() == std::vector<std::string>{"img0.png", "img3.png", "img5.png"}; }},
            {QStringLiteral("add class"),
             [&] {
                 const auto* bus = doc.schema().find(4);
                 return bus && bus->name == "bus" && bus->color == data::Rgb{1, 2, 3};
             }},
            {QStringLiteral("rename class"), [&] { return doc.schema().find(2) && doc.schema().find(2)->name == "heaven"; }},
            {QStringLiteral("recolour class"),
             [&] { return doc.schema().find(3) && doc.schema().find(3)->color == data::Rgb{9, 9, 9}; }},
            {QStringLiteral("merge classes"), [&] { return !doc.schema().contains(1) && !mapsHold(1) && mapsHold(3); }},
            {QStringLiteral("delete class"), [&] { return !doc.schema().contains(2) && !mapsHold(2) && mapsHold(0); }},
        };
        const auto before = snapshot(doc);
        QVERIFY(!done.at(edit)());
        QVERIFY(edits.at(edit)());
        const auto after = snapshot(doc);
        QVERIFY(after != before);
        QVERIFY2(done.at(edit)(), "the edit did not do what it was asked");
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->undo();
        QVERIFY(snapshot(doc) == before);
        QVERIFY(!done.at(edit)());
        doc.undoStack()->redo();
        QVERIFY(snapshot(doc) == after);
        QVERIFY(done.at(edit)());
        doc.undoStack()->undo();
        QVERIFY(snapshot(doc) == before);
    }

    // Issue 27, item 18: the images without a split get one at random in one undoable step; the
    // others keep theirs; nothing to split is no step.
    void unassignedImagesAreSplitInOneStep()
    {
        QTemporaryDir dir;
        auto document = makeDocument(dir);
        QVERIFY(document->setSplit({0, 1, 2, 3}, data::Split::Unassigned));
        const int steps = document->undoStack()->count();
        QVERIFY(document->splitUnassigned({0.5, 0.25, 0.25}, 7));
        QCOMPARE(document->undoStack()->count(), steps + 1);
        std::map<data::Split, int> counts;
        for (std::size_t i = 0; i < 4; ++i)
            ++counts[document->project().entry(i).split];
        QCOMPARE(counts[data::Split::Train], 2);
        QCOMPARE(counts[data::Split::Val], 1);
        QCOMPARE(counts[data::Split::Test], 1);
        QVERIFY(document->project().entry(4).split == data::Split::Val);  // had one: kept
        QVERIFY(document->project().entry(5).split == data::Split::Train);
        QVERIFY(!document->splitUnassigned({0.5, 0.25, 0.25}, 7));
        document->undoStack()->undo();
        for (std::size_t i = 0; i < 4; ++i)
            QVERIFY(document->project().entry(i).split == data::Split::Unassigned);
    }

    void mergeRelabelsTheDatasetAndTellsTheViews()
    {
        QTemporaryDir dir;
        auto doc = makeDocument(dir);
        QSignalSpy busy(doc.get(), &ProjectDocument::busyChanged);
        QSignalSpy remapped(doc.get(), &ProjectDocument::classesRemapped);
        QSignalSpy changed(doc.get(), &ProjectDocument::labelMapsChanged);
        QVERIFY(doc->mergeClasses(1, 2));
        QVERIFY(doc->isBusy());
        QVERIFY(!doc->setSplit({0}, data::Split::Test));  // refused while the job runs
        QVERIFY(doc->waitForIdle());
        QCOMPARE(busy.count(), 2);
        QCOMPARE(remapped.count(), 1);
        const auto table = remapped.at(0).at(1).value<ProjectDocument::ClassTable>();
        QCOMPARE(int(table[1]), 2);
        QCOMPARE(int(table[3]), 3);
        QCOMPARE(changed.count(), 1);
        QVERIFY(!doc->schema().contains(1));
        for (std::size_t i = 0; i < 5; ++i)
            QCOMPARE(cv::countNonZero(data::readLabelMap(doc->project().labelMapPath(i), doc->schema()) == 1), 0);
        QCOMPARE(data::Project::load(doc->project().file()).schema(), doc->schema());
    }

    // The views hear which class changed, both ways.
    void classSignalsNameTheClass()
    {
        QTemporaryDir dir;
        auto doc = makeDocument(dir);
        QSignalSpy added(doc.get(), &ProjectDocument::classAdded);
        QSignalSpy removed(doc.get(), &ProjectDocument::classRemoved);
        QSignalSpy changed(doc.get(), &ProjectDocument::classChanged);
        QSignalSpy merged(doc.get(), &ProjectDocument::classesMerged);
        QCOMPARE(doc->addClass(QStringLiteral("bus"), {1, 2, 3}), std::optional<int>(4));
        QCOMPARE(added.takeFirst().at(0).toInt(), 4);
        doc->undoStack()->undo();
        QCOMPARE(removed.takeFirst().at(0).toInt(), 4);
        QVERIFY(doc->renameClass(2, QStringLiteral("heaven")));
        QVERIFY(doc->recolourClass(3, {1, 1, 1}));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.at(1).at(0).toInt(), 3);
        QVERIFY(doc->mergeClasses(1, 0));
        QVERIFY(doc->waitForIdle());
        QCOMPARE(merged.count(), 1);
        QCOMPARE(merged.first().at(0).toInt(), 1);
        QCOMPARE(merged.first().at(1).toInt(), 0);
        QVERIFY(doc->deleteClass(2));
        QVERIFY(doc->waitForIdle());
        QCOMPARE(removed.takeFirst().at(0).toInt(), 2);
        doc->undoStack()->undo();
        QVERIFY(doc->waitForIdle());
        QCOMPARE(added.takeFirst().at(0).toInt(), 2);
    }

    // Issue 47.9: the destructor spun the event loop for up to 60 s, and a job still running after
    // that kept a pointer to the freed cancel flag. Now it cancels a job that can be cancelled and
    // waits for its worker, running no event (a timer due at once must not fire) and no finish.
    void destroyingADocumentWaitsForItsJobWithoutAnEventLoop()
    {
        QTemporaryDir dir;
        auto doc = makeDocument(dir);
        ProjectDocument* raw = doc.get();
        std::atomic<bool> sawCancel{false};
        bool finished = false;
        raw->runJob(
            QStringLiteral("waits"),
            [raw, &sawCancel](const auto&) {
                while (!raw->jobCancelled())
                    std::this_thread::yield();
                sawCancel = true;
            },
            [&finished](const QString&) { finished = true; }, /*cancellable=*/true);
        QVERIFY(raw->isBusy());
        bool eventRan = false;
        QTimer::singleShot(0, [&eventRan] { eventRan = true; });
        doc.reset();
        QVERIFY(sawCancel);
        QVERIFY(!finished);
        QVERIFY(!eventRan);
        QCoreApplication::processEvents();
        QVERIFY(eventRan);
    }

    void cancelledMergeChangesNothing()
    {
        QTemporaryDir dir;
        auto doc = makeDocument(dir);
        const auto before = snapshot(*doc);
        QVERIFY(doc->deleteClass(0));
        doc->cancelJob();
        QVERIFY(doc->waitForIdle());
        QCOMPARE(doc->undoStack()->count(), 0);
        QVERIFY(doc->schema().contains(0));
        QVERIFY(snapshot(*doc) == before);
    }

    void theOpenImageIsSavedBeforeTheMapsChange()
    {
        QTemporaryDir dir;
        auto doc = makeDocument(dir);
        int saves = 0;
        doc->setBeforeLabelMapsChange([&] { return ++saves > 1; });  // the first save fails
        QVERIFY(!doc->mergeClasses(1, 2));
        QVERIFY(!doc->isBusy());
        QVERIFY(doc->mergeClasses(1, 2));
        QVERIFY(doc->waitForIdle());
        doc->undoStack()->undo();
        QVERIFY(doc->waitForIdle());
        QCOMPARE(saves, 3);
    }

    // A merge whose process died after the maps were replaced (the journal still says "changing")
    // is rolled back when the project is opened again: maps and class list agree.
    void anInterruptedMergeIsRecoveredOnOpen()
    {
        QTemporaryDir dir;
        fs::path file;
        std::map<std::string, std::string> before;
        {
            auto doc = makeDocument(dir);
            file = doc->project().file();
            before = snapshot(*doc);
        }
        data::Project project = data::Project::load(file);
        data::DatasetRelabeler relabeler;
        relabeler.map(3, 0);
        data::ClassSchema after = project.schema();
        after.remove(3);
        data::RelabelTransaction step(data::RelabelTransaction::undoRoot(file) / "crashed");
        QVERIFY(!step.apply(project, relabeler, project.schema(), after).changed.empty());
        project.setSchema(after);
        project.save();  // ... and the process dies here, before settle()

        auto reopened = ProjectDocument::open(file);
        QCOMPARE(reopened->recoveredSteps().size(), 1);
        QVERIFY(reopened->schema().contains(3));
        QVERIFY(snapshot(*reopened) == before);
    }

    // Undo of a merge whose write fails part way (a folder where one map's temp file must go, so
    // the write fails as a full or read-only disk does): the maps written back stay, the class
    // comes back, the user is told in a modal message, and nothing is lost: the step stays
    // unfinished with its backups, Undo retries it, and closing the project keeps them.
    void aFailedUndoOfAMergeIsRetriedAndNothingIsLost()
    {
        QTemporaryDir dir;
        auto document = makeDocument(dir);
        ProjectDocument& doc = *document;
        const auto before = snapshot(doc);
        QVERIFY(doc.mergeClasses(1, 0));
        QVERIFY(doc.waitForIdle());
        const auto merged = snapshot(doc);
        QVERIFY(merged != before);

        // Maps are written back last first: img2's is in the middle of the undo.
        const fs::path blocked = doc.project().labelMapPath(2);
        const std::string mapName = blocked.filename().string();
        QVERIFY(fs::create_directory(blocked.string() + ".tmp"));
        QSignalSpy alerts(&doc, &ProjectDocument::alert);
        doc.undoStack()->undo();
        QVERIFY(doc.waitForIdle());
        QCOMPARE(alerts.size(), 1);
        const QString alert = alerts.at(0).at(1).toString();
        QVERIFY2(alert.contains(QString::fromStdString(mapName)) && alert.contains(QStringLiteral("backups")), qPrintable(alert));

        QVERIFY(doc.schema().contains(1));  // in memory and in the project file
        QVERIFY(data::Project::load(doc.project().file()).schema().contains(1));
        QCOMPARE(run::readFile(blocked), merged.at(mapName));  // not written back yet
        for (const auto& [name, bytes] : before)
            if (name != "project" && name != mapName)
                QCOMPARE(run::readFile(doc.project().labelRoot() / name), bytes);
        const fs::path undoRoot = data::RelabelTransaction::undoRoot(doc.project().file());
        QCOMPARE(std::distance(fs::directory_iterator(undoRoot), fs::directory_iterator()), 1);

        // Undo is offered again, and retries once the obstacle is gone.
        QTRY_VERIFY(doc.undoStack()->canUndo());
        fs::remove(blocked.string() + ".tmp");
        doc.undoStack()->undo();
        QVERIFY(doc.waitForIdle());
        QCOMPARE(alerts.size(), 1);
        QVERIFY(snapshot(doc) == before);
        QVERIFY(doc.undoStack()->canRedo());
    }

    // The same failure, and the user closes the project instead: the backups outlive the
    // command, and the next open finishes the undo to the exact bytes.
    void aFailedUndoIsFinishedOnTheNextOpen()
    {
        QTemporaryDir dir;
        auto document = makeDocument(dir);
        const fs::path file = document->project().file();
        const auto before = snapshot(*document);
        QVERIFY(document->mergeClasses(1, 0));
        QVERIFY(document->waitForIdle());
        const fs::path blocked = document->project().labelMapPath(3);
        QVERIFY(fs::create_directory(blocked.string() + ".tmp"));
        document->undoStack()->undo();
        QVERIFY(document->waitForIdle());
        document.reset();  // close: the commands go, the unfinished step's backups stay
        QVERIFY(fs::exists(data::RelabelTransaction::undoRoot(file)));
        QVERIFY(!fs::is_empty(data::RelabelTransaction::undoRoot(file)));

        fs::remove(blocked.string() + ".tmp");
        auto reopened = ProjectDocument::open(file);
        QCOMPARE(reopened->recoveredSteps().size(), 1);
        QVERIFY(snapshot(*reopened) == before);
        QVERIFY(!fs::exists(data::RelabelTransaction::undoRoot(file)) || fs::is_empty(data::RelabelTransaction::undoRoot(file)));
    }

    // A second window on the same project: read-only, every edit refused, nothing written, and
    // the first window's lock left alone when it closes.
    void aSecondDocumentOnTheSameProjectIsReadOnly()
    {
        QTemporaryDir dir;
        auto first = makeDocument(dir);
        const auto files = snapshot(*first);
        auto second = ProjectDocument::open(first->project().file());
        QVERIFY(!first->isReadOnly());
        QVERIFY(second->isReadOnly());
        QVERIFY(second->lockHeldByOther());
        QVERIFY2(second->readOnlyReason().contains(QString::number(::getpid())), qPrintable(second->readOnlyReason()));
        QVERIFY(!second->setSplit({0}, data::Split::Test));
        QVERIFY(!second->setStatus({0}, data::LabelStatus::Reviewed));
        QVERIFY(!second->addClass(QStringLiteral("x"), {1, 2, 3}));
        QVERIFY(!second->mergeClasses(1, 0));
        QVERIFY(!second->deleteClass(2));
        QVERIFY(second->addImages({dir.filePath(QStringLiteral("img0.png")).toStdString()}, data::Split::Train) == 0);
        QVERIFY(!second->save());
        QCOMPARE(second->undoStack()->count(), 0);
        second.reset();
        QVERIFY(snapshot(*first) == files);
        QVERIFY(fs::exists(first->project().file().string() + ".lock"));
        QVERIFY(first->setSplit({0}, data::Split::Test));  // the first one edits on
    }

    // A project in a folder this user cannot write opens read-only with the reason, instead of
    // not opening at all. (As root the check runs in a child that drops to nobody: root writes
    // anywhere.)
    void aProjectInAReadOnlyFolderOpensReadOnly()
    {
        QTemporaryDir dir;
        fs::path file;
        {
            auto document = makeDocument(dir);
            file = document->project().file();
        }
        const auto permissions = fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                 fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec;
        fs::permissions(file.parent_path(), permissions);
        const pid_t child = fork();
        if (child == 0) {
            if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
                _exit(10);
            int code = 0;
            try {
                auto document = ProjectDocument::open(file);
                if (!document->isReadOnly() || !document->readOnlyReason().contains(QStringLiteral("cannot be written")))
                    code = 1;
                else if (document->setSplit({0}, data::Split::Test) || document->save())
                    code = 2;
            } catch (...) {
                code = 3;
            }
            _exit(code);
        }
        int status = 0;
        waitpid(child, &status, 0);
        fs::permissions(file.parent_path(), fs::perms::owner_all, fs::perm_options::add);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    void removingAndReinsertingTellsTheViewsRowByRow()
    {
        QTemporaryDir dir;
        auto doc = makeDocument(dir);
        QSignalSpy removed(doc.get(), &ProjectDocument::imageRemoved);
        QSignalSpy inserted(doc.get(), &ProjectDocument::imageInserted);
        QVERIFY(doc->removeImages({1, 3}));
        QCOMPARE(removed.count(), 2);
        QCOMPARE(removed.at(0).at(0).value<std::size_t>(), std::size_t(3));  // descending: indices stay valid
        QCOMPARE(removed.at(1).at(0).value<std::size_t>(), std::size_t(1));
        doc->undoStack()->undo();
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.at(0).at(0).value<std::size_t>(), std::size_t(1));
        QCOMPARE(QString::fromStdString(doc->project().entry(3).image), QStringLiteral("img3.png"));
    }
};

QTEST_MAIN(TestProjectDocument)
#include "test_ProjectDocument.moc"
