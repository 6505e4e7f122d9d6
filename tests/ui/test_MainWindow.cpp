#include "UiTestProject.h"
#include "app/DatasetBrowser.h"
#include "app/ImageFilterProxyModel.h"
#include "app/ImageListModel.h"
#include "app/MainWindow.h"
#include "app/StartPage.h"
#include "editor/LabelEditor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::ImageListModel;
using segstudio::ui::MainWindow;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SegStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_MainWindow"));
        QVERIFY(m_dir.isValid());
        m_file = m_dir.filePath(QStringLiteral("test.segstudio"));
        segstudio::test::writeProject(m_dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                     {"beta.png", Split::Val, LabelStatus::Unlabelled, {}, 0},
                                                     {"gamma.png", Split::Val, LabelStatus::InProgress, {2}, 1},
                                                     {"delta.png", Split::Test, LabelStatus::Unlabelled, {}, 0}});
    }

    void startsOnTheStartPage()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.startPage()->isVisible());
        QVERIFY(!window.project());
    }

    void badProjectFileIsReportedNotFatal()
    {
        MainWindow window;
        const QString bad = m_dir.filePath(QStringLiteral("missing.segstudio"));
        QVERIFY(!window.openProject(bad));
        QVERIFY2(window.lastError().contains(QStringLiteral("missing.segstudio")), qPrintable(window.lastError()));
        QVERIFY(!window.project());
    }

    void opensFiltersSelectsAndTheEditorFollows()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(m_file), qPrintable(window.lastError()));
        QVERIFY(!window.startPage()->isVisible());
        QVERIFY(window.editor()->isVisible());
        segstudio::ui::DatasetBrowser* browser = window.browser();
        QCOMPARE(browser->model()->rowCount(), 4);
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(0));

        // Filter through the browser's own controls: split = val, then a search.
        auto* split = browser->findChild<QComboBox*>(QStringLiteral("splitFilter"));
        QVERIFY(split);
        split->setCurrentIndex(split->findData(int(Split::Val)));
        QCOMPARE(browser->proxy()->rowCount(), 2);
        auto* search = browser->findChild<QLineEdit*>(QStringLiteral("search"));
        QVERIFY(search);
        QTest::keyClicks(search, QStringLiteral("gam"));
        QCOMPARE(browser->proxy()->rowCount(), 1);

        // Select by clicking the grid cell; the editor shows that image.
        QListView* grid = browser->gridView();
        const QRect cell = grid->visualRect(browser->proxy()->index(0, 0));
        QVERIFY(cell.isValid());
        QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(browser->currentEntry(), std::optional<std::size_t>(2));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(2));

        // Keyboard navigation within the filter: clear the search, go to the previous val image.
        search->clear();
        QCOMPARE(browser->proxy()->rowCount(), 2);
        browser->previousAction()->trigger();
        QCOMPARE(browser->currentEntry(), std::optional<std::size_t>(1));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(1));
    }

    void labellingUpdatesTheBrowserLive()
    {
        MainWindow window;
        QVERIFY(window.openProject(m_file));
        ImageListModel* model = window.browser()->model();
        QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
        emit window.editor()->imageLabelled(3, 0.4);
        QCOMPARE(model->index(3, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 0.4);
        QVERIFY(!changed.isEmpty());
    }

    void openedProjectsBecomeRecent()
    {
        MainWindow window;
        QVERIFY(window.openProject(m_file));
        QVERIFY(window.closeProject());
        QVERIFY(window.startPage()->isVisibleTo(&window));
        QListWidget* recent = window.startPage()->recentList();
        QVERIFY(recent->count() >= 1);
        QCOMPARE(recent->item(0)->data(Qt::UserRole).toString(), QFileInfo(m_file).absoluteFilePath());
    }

    void aPendingProjectSaveIsWrittenWhenTheWindowGoes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        segstudio::test::writeProject(dir.path(), {{"one.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                   {"two.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        const QString file = dir.filePath(QStringLiteral("test.segstudio"));
        {
            MainWindow window;
            QVERIFY2(window.openProject(file), qPrintable(window.lastError()));
            // Schedules the delayed project save; the window goes before it would fire.
            window.browser()->model()->setSplit({1}, Split::Test);
        }
        QCOMPARE(int(segstudio::data::Project::load(file.toStdString()).entry(1).split), int(Split::Test));
    }

    void aFailedOpenKeepsTheOpenProject()
    {
        const QString corrupt = m_dir.filePath(QStringLiteral("corrupt.segstudio"));
        QFile file(corrupt);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ this is not a project");
        file.close();

        MainWindow window;
        QVERIFY2(window.openProject(m_file), qPrintable(window.lastError()));
        segstudio::data::Project* good = window.project();
        QVERIFY(!window.openProject(corrupt));
        QVERIFY(!window.lastError().isEmpty());
        QCOMPARE(window.project(), good);
        QCOMPARE(window.browser()->model()->rowCount(), 4);
        QVERIFY(!window.startPage()->isVisibleTo(&window));
    }

    void afterRemovingTheCurrentImageTheNextOneIsShown()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                   {"beta.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                   {"gamma.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        segstudio::ui::DatasetBrowser* browser = window.browser();
        QVERIFY(browser->selectEntry(1));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(1));

        // Answer "Remove images?" with Yes once the box is up (it runs its own event loop).
        QTimer::singleShot(0, &window, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->button(QMessageBox::Yes)->click();
        });
        emit browser->removeRequested({1});
        QCOMPARE(window.project()->size(), std::size_t(2));
        // gamma moved into beta's place: it is selected and the editor shows it.
        QCOMPARE(browser->currentEntry(), std::optional<std::size_t>(1));
        QCOMPARE(window.project()->entry(1).image, std::string("images/gamma.png"));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(1));

        // Going away and back reaches it too.
        QVERIFY(browser->selectEntry(0));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(0));
        QVERIFY(browser->selectEntry(1));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(1));
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
};

QTEST_MAIN(TestMainWindow)
#include "test_MainWindow.moc"
