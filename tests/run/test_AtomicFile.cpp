#include "RunTestFiles.h"
#include "run/AtomicFile.h"
#include "run/FileError.h"

#include <QtTest>

using namespace segstudio;
namespace fs = std::filesystem;

// The three ways SegStudio writes a file, on a full disk as it happens (the kernel's /dev/full
// answers every write with ENOSPC): the error names the file and the reason; an atomic write keeps
// the previous file and leaves no temp file; a staged write (a file new in a folder published as a
// whole) leaves nothing behind.
class TestAtomicFile : public QObject {
    Q_OBJECT

private slots:
    void atomicWritesReplaceWholeAndLeaveNoTempFile_data()
    {
        QTest::addColumn<int>("durability");
        QTest::newRow("immediate") << int(run::Durability::Immediate);
        QTest::newRow("deferred") << int(run::Durability::Deferred);
    }

    void atomicWritesReplaceWholeAndLeaveNoTempFile()
    {
        QFETCH(int, durability);
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        run::writeFileAtomically(file, std::string("old"), run::Durability(durability));
        run::writeFileAtomically(file, std::string("new content"), run::Durability(durability));
        QCOMPARE(test::read(file), std::string("new content"));
        QCOMPARE(std::distance(fs::directory_iterator(dir.path().toStdString()), fs::directory_iterator()), 1);
    }

    void fullDiskKeepsThePreviousFile_data() { atomicWritesReplaceWholeAndLeaveNoTempFile_data(); }

    void fullDiskKeepsThePreviousFile()
    {
        if (!fs::exists("/dev/full"))
            QSKIP("this system has no /dev/full");
        QFETCH(int, durability);
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        run::writeFileAtomically(file, std::string("old"));
        fs::create_symlink("/dev/full", test::path(dir, "labels.png.tmp"));  // the temp file's fixed name
        try {
            run::writeFileAtomically(file, std::string(100000, 'x'), run::Durability(durability));
            QFAIL("a write to a full disk succeeded");
        } catch (const run::FileError& error) {
            const QString message = QString::fromStdString(error.what());
            QVERIFY2(message.contains("labels.png") && message.contains("No space left on device")
                         && message.contains("the previous file is kept"),
                     qPrintable(message));
        }
        QCOMPARE(test::read(file), std::string("old"));
        QVERIFY(!fs::exists(fs::symlink_status(test::path(dir, "labels.png.tmp"))));
    }

    void stagedWriteGoesInPlace()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "000001.png");
        run::writeFileAtomically(file, std::string("label map"), run::Durability::Staged);
        QCOMPARE(test::read(file), std::string("label map"));
        QCOMPARE(std::distance(fs::directory_iterator(dir.path().toStdString()), fs::directory_iterator()), 1);
    }

    void stagedWriteOnAFullDiskLeavesNothing()
    {
        if (!fs::exists("/dev/full"))
            QSKIP("this system has no /dev/full");
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "000001.png");
        fs::create_symlink("/dev/full", file);
        try {
            run::writeFileAtomically(file, std::string(100000, 'x'), run::Durability::Staged);
            QFAIL("a write to a full disk succeeded");
        } catch (const run::FileError& error) {
            const QString message = QString::fromStdString(error.what());
            QVERIFY2(message.contains("000001.png") && message.contains("No space left on device")
                         && !message.contains("kept"),
                     qPrintable(message));
        }
        QVERIFY(fs::is_empty(dir.path().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "test_AtomicFile.moc"
