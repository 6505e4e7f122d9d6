// File > Open Recent (out of MainWindow, issue 65.1): an entry per project with its file name and
// the whole path as tooltip, off when there is none, and a choice said by projectChosen.
#include "shell/RecentProjectsMenu.h"

#include <QSignalSpy>
#include <QtTest>

using segstudio::ui::shell::RecentProjectsMenu;

class TestRecentProjectsMenu : public QObject {
    Q_OBJECT

private slots:
    void listsAndOpensTheRecentProjects()
    {
        RecentProjectsMenu menu;
        QVERIFY(!menu.isEnabled());  // nothing recent yet
        menu.setProjects({QStringLiteral("/data/streets/camvid.segstudio"), QStringLiteral("/data/em/cells.segstudio")});
        QVERIFY(menu.isEnabled());
        QCOMPARE(menu.actions().size(), 2);
        QCOMPARE(menu.actions().at(0)->text(), QStringLiteral("camvid.segstudio"));
        QCOMPARE(menu.actions().at(1)->toolTip(), QStringLiteral("/data/em/cells.segstudio"));
        QSignalSpy chosen(&menu, &RecentProjectsMenu::projectChosen);
        menu.actions().at(1)->trigger();
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().first().toString(), QStringLiteral("/data/em/cells.segstudio"));
        menu.setProjects({});
        QVERIFY(menu.actions().isEmpty());
        QVERIFY(!menu.isEnabled());
    }
};

QTEST_MAIN(TestRecentProjectsMenu)
#include "test_RecentProjectsMenu.moc"
