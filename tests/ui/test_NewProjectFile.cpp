#include "project/NewProjectFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using segstudio::ui::project::NewProjectFile;

// The project-file check both wizards make: suffix added, existing files refused (never silently
// overwritten), missing and unwritable folders refused.
class TestNewProjectFile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile existing(m_dir.filePath(QStringLiteral("old.segstudio")));
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("{}");
        QFile plain(m_dir.filePath(QStringLiteral("plain.txt")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
    }

    void check_data()
    {
        QTest::addColumn<QString>("path");  // relative to the temp folder; empty stays empty
        QTest::addColumn<QString>("file");  // expected normalised path, relative likewise
        QTest::addColumn<QString>("error"); // a fragment of the expected error; empty = accepted

        QTest::newRow("empty") << QString() << QString() << QStringLiteral("Choose where");
        QTest::newRow("new, with suffix") << QStringLiteral("new.segstudio") << QStringLiteral("new.segstudio") << QString();
        QTest::newRow("new, suffix added") << QStringLiteral("new") << QStringLiteral("new.segstudio") << QString();
        QTest::newRow("exists") << QStringLiteral("old.segstudio") << QStringLiteral("old.segstudio")
                                << QStringLiteral("already exists");
        QTest::newRow("exists once the suffix is added") << QStringLiteral("old") << QStringLiteral("old.segstudio")
                                                         << QStringLiteral("already exists");
        // A missing folder under a writable one is created by the wizard (folderToCreate).
        QTest::newRow("missing folder") << QStringLiteral("nowhere/new.segstudio")
                                        << QStringLiteral("nowhere/new.segstudio") << QString();
        QTest::newRow("folder is a file") << QStringLiteral("plain.txt/new.segstudio")
                                          << QStringLiteral("plain.txt/new.segstudio") << QStringLiteral("no such folder");
    }

    void check()
    {
        QFETCH(QString, path);
        QFETCH(QString, file);
        QFETCH(QString, error);
        const NewProjectFile result = NewProjectFile::check(path.isEmpty() ? path : m_dir.filePath(path));
        QCOMPARE(result.file, file.isEmpty() ? file : m_dir.filePath(file));
        if (error.isEmpty())
            QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        else
            QVERIFY2(result.error.contains(error), qPrintable(result.error));
    }

    void missingFolderIsCreatedOnRequest()
    {
        const NewProjectFile result = NewProjectFile::check(m_dir.filePath(QStringLiteral("a/b/p.segstudio")));
        QVERIFY(result.error.isEmpty());
        QCOMPARE(result.folderToCreate, m_dir.filePath(QStringLiteral("a/b")));
        QVERIFY(result.createFolder(nullptr));
        QVERIFY(QFileInfo(m_dir.filePath(QStringLiteral("a/b"))).isDir());
        QVERIFY(NewProjectFile::check(result.file).folderToCreate.isEmpty());
    }

    // Issue 27, item 19: a folder of its own under the user's projects, never beside the
    // dataset (often read-only or shared); a name taken gets -2, -3.
    void suggestionIsAFolderOfItsOwn()
    {
        const QString root = m_dir.filePath(QStringLiteral("projects"));
        const QString dataset = m_dir.filePath(QStringLiteral("shared/camvid"));
        QCOMPARE(NewProjectFile::suggestFor(dataset, root), root + QStringLiteral("/camvid/camvid.segstudio"));
        QCOMPARE(NewProjectFile::suggestFor(dataset + QLatin1Char('/'), root), root + QStringLiteral("/camvid/camvid.segstudio"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/camvid")));
        QCOMPARE(NewProjectFile::suggestFor(dataset, root), root + QStringLiteral("/camvid-2/camvid.segstudio"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/camvid-2")));
        QCOMPARE(NewProjectFile::suggestFor(dataset, root), root + QStringLiteral("/camvid-3/camvid.segstudio"));
        QVERIFY(NewProjectFile::suggestFor(dataset).startsWith(NewProjectFile::projectsRoot() + QLatin1Char('/')));
    }

    void unwritableFolderIsRefused()
    {
        const QString folder = m_dir.filePath(QStringLiteral("readonly"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
        if (QFileInfo(folder).isWritable())
            QSKIP("this user can write anywhere (root): the permission cannot be tested here");
        const NewProjectFile result = NewProjectFile::check(folder + QStringLiteral("/p.segstudio"));
        QVERIFY2(result.error.contains(QStringLiteral("not writable")), qPrintable(result.error));
    }

    void cleanupTestCase()
    {
        QFile::setPermissions(m_dir.filePath(QStringLiteral("readonly")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestNewProjectFile)
#include "test_NewProjectFile.moc"
