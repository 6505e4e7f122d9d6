#include "data/labels/ClassSchema.h"
#include "data/labels/DataError.h"
#include "data/labels/LabelMapIO.h"
#include "data/labels/RecoveryStore.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using segstudio::data::ClassSchema;
using segstudio::data::DataError;
using segstudio::data::RecoveryStore;

// The crash-recovery folder: round trip of unsaved maps, discard after a save, and the damaged
// cases (a note without its map, a map of the wrong size, an unreadable note).
class TestRecoveryStore : public QObject {
    Q_OBJECT

private:
    static ClassSchema schema() { return ClassSchema({{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"}}); }

    static cv::Mat someLabels(int seed)
    {
        cv::Mat labels(30, 40, CV_8UC1, cv::Scalar(255));
        labels(cv::Rect(seed, 0, 10, 30)).setTo(0);
        labels(cv::Rect(0, seed, 40, 5)).setTo(1);
        return labels;
    }

    static std::vector<std::string> filesIn(const std::filesystem::path& folder)
    {
        std::vector<std::string> names;
        for (const auto& item : std::filesystem::directory_iterator(folder))
            names.push_back(item.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

private slots:
    void storeFindRestoreRoundTrip()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path().toStdString());
        QVERIFY(store.entries().empty());
        QVERIFY(!store.find("images/a.png"));
        const cv::Mat a = someLabels(3), b = someLabels(17);
        store.store("images/a.png", a, schema());
        store.store("images/sub/b.png", b, schema());
        QCOMPARE(store.entries().size(), std::size_t(2));
        const auto entry = store.find("images/sub/b.png");
        QVERIFY(entry.has_value());
        QCOMPARE(entry->image, std::string("images/sub/b.png"));
        QVERIFY(entry->savedAtMs > 0);
        const cv::Mat restored = store.restore(*entry, schema(), b.size());
        QCOMPARE(cv::countNonZero(restored != b), 0);
        // One map and one note per image, nothing half-written left behind.
        QCOMPARE(filesIn(store.folder()).size(), std::size_t(4));
    }

    void storingAgainReplacesTheCopy()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path().toStdString());
        store.store("a.png", someLabels(1), schema());
        const cv::Mat newer = someLabels(20);
        store.store("a.png", newer, schema());
        QCOMPARE(store.entries().size(), std::size_t(1));
        const cv::Mat restored = store.restore(*store.find("a.png"), schema());
        QCOMPARE(cv::countNonZero(restored != newer), 0);
        for (const std::string& name : filesIn(store.folder()))
            QVERIFY2(name.find(".partial") == std::string::npos, name.c_str());  // atomic writes cleaned up
    }

    void discardRemovesFilesAndEmptyFolder()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path().toStdString());
        store.store("a.png", someLabels(1), schema());
        store.store("b.png", someLabels(2), schema());
        store.discard("a.png");
        QVERIFY(!store.find("a.png"));
        QVERIFY(store.find("b.png").has_value());
        QCOMPARE(filesIn(store.folder()).size(), std::size_t(2));
        store.discard("b.png");
        QVERIFY(!std::filesystem::exists(store.folder()));  // no empty folder left in the project
        store.discard("never-stored.png");                   // harmless
    }

    void missingMapIsReportedNamingTheNote()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path().toStdString());
        store.store("a.png", someLabels(1), schema());
        const auto entry = store.find("a.png");
        std::filesystem::remove(entry->labelFile);
        try {
            store.restore(*entry, schema());
            QFAIL("restore of a note without its map must throw");
        } catch (const DataError& e) {
            QCOMPARE(e.file(), entry->noteFile.string());
            QVERIFY(std::string(e.what()).find("missing") != std::string::npos);
        }
    }

    void wrongSizeIsRefused()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path().toStdString());
        store.store("a.png", someLabels(1), schema());
        QVERIFY_THROWS_EXCEPTION(DataError, store.restore(*store.find("a.png"), schema(), cv::Size(41, 30)));
    }

    // A damaged note must not hide the unsaved work beside it: its map is matched to its image
    // by key (the hash of the image's path), and what matches nothing is named, not skipped.
    void mapOfUnreadableNoteIsStillOffered()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path().toStdString());
        store.store("a.png", someLabels(1), schema());
        store.store("b/c.png", someLabels(2), schema());
        const std::filesystem::path damagedNote = store.find("b/c.png")->noteFile;
        std::ofstream(damagedNote, std::ios::trunc) << "{ half a no";
        std::ofstream(store.folder() / "garbage.json") << "{ not json";

        const RecoveryStore::Scan scan = store.scan({"a.png", "b/c.png", "d.png"});
        QCOMPARE(scan.entries.size(), std::size_t(2));
        const auto damaged = std::find_if(scan.entries.begin(), scan.entries.end(),
                                          [](const auto& e) { return e.image == "b/c.png"; });
        QVERIFY(damaged != scan.entries.end());
        QVERIFY(damaged->savedAtMs > 0);
        QVERIFY(store.restore(*damaged, schema(), cv::Size(40, 30)).size() == cv::Size(40, 30));
        QCOMPARE(cv::countNonZero(store.restore(*damaged, schema()) != someLabels(2)), 0);
        // The stray note matches no map: named, with the file and why.
        QCOMPARE(scan.unreadable.size(), std::size_t(1));
        QVERIFY(scan.unreadable.front().find("garbage.json") != std::string::npos);
        QVERIFY(scan.unreadable.front().find("label map is missing") != std::string::npos);
        // Opening the image finds its copy too.
        QVERIFY(store.find("b/c.png").has_value());
        store.discard("b/c.png");
        QVERIFY(!store.find("b/c.png").has_value());
    }

    // A crash between writing the map and its note leaves the map alone: still offered.
    void mapWithoutNoteIsOfferedForItsImage()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path().toStdString());
        store.store("x.png", someLabels(3), schema());
        std::filesystem::remove(store.find("x.png")->noteFile);
        store.store("orphan-of-nothing.png", someLabels(4), schema());
        std::filesystem::remove(store.find("orphan-of-nothing.png")->noteFile);

        const RecoveryStore::Scan scan = store.scan({"x.png"});
        QCOMPARE(scan.entries.size(), std::size_t(1));
        QCOMPARE(scan.entries.front().image, std::string("x.png"));
        QCOMPARE(scan.unreadable.size(), std::size_t(1));
        QVERIFY(scan.unreadable.front().find("without a note") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestRecoveryStore)
#include "test_RecoveryStore.moc"
