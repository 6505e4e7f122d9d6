#include "UiTestProject.h"
#include "shell/RecentProjects.h"

#include <QDir>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using segstudio::ui::shell::RecentProjects;

class TestRecentProjects : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    }

    void newestFirstWithoutDuplicates()
    {
        RecentProjects recent(*m_settings, 3);
        recent.add(QStringLiteral("/p/a.segstudio"));
        recent.add(QStringLiteral("/p/b.segstudio"));
        recent.add(QStringLiteral("/p/a.segstudio"));
        QCOMPARE(recent.files(), (segstudio::test::strings({"/p/a.segstudio", "/p/b.segstudio"})));
    }

    void keepsAtMostTheLimit()
    {
        RecentProjects recent(*m_settings, 2);
        recent.add(QStringLiteral("/p/a.segstudio"));
        recent.add(QStringLiteral("/p/b.segstudio"));
        recent.add(QStringLiteral("/p/c.segstudio"));
        QCOMPARE(recent.files(), (segstudio::test::strings({"/p/c.segstudio", "/p/b.segstudio"})));
    }

    void relativePathsAreMadeAbsolute()
    {
        RecentProjects recent(*m_settings);
        recent.add(QStringLiteral("x.segstudio"));
        recent.add(QDir::current().absoluteFilePath(QStringLiteral("x.segstudio")));
        QCOMPARE(recent.files(), QStringList{QDir::current().absoluteFilePath(QStringLiteral("x.segstudio"))});
    }

    void removeAndClearPersist()
    {
        {
            RecentProjects recent(*m_settings);
            recent.add(QStringLiteral("/p/a.segstudio"));
            recent.add(QStringLiteral("/p/b.segstudio"));
            recent.remove(QStringLiteral("/p/a.segstudio"));
        }
        m_settings->sync();
        QSettings reread(m_dir->filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        QCOMPARE(RecentProjects(reread).files(), segstudio::test::strings({"/p/b.segstudio"}));
        RecentProjects(reread).clear();
        QVERIFY(RecentProjects(reread).files().isEmpty());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
};

QTEST_MAIN(TestRecentProjects)
#include "test_RecentProjects.moc"
