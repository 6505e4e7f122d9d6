#include "UiTestProject.h"
#include "browser/DatasetBrowser.h"
#include "browser/ImageFilterProxyModel.h"
#include "browser/ImageListModel.h"
#include "shell/MainWindow.h"
#include "training/MetricsPlot.h"
#include "predictions/PredictionService.h"
#include "predictions/PredictionsDock.h"
#include "shell/ReadOnlyBanner.h"
#include "shell/Workspaces.h"
#include "shell/ShortcutsDialog.h"
#include "training/LiveFineTuner.h"
#include "training/TrainingDock.h"
#include "shell/StartPage.h"
#include "document/ProjectDocument.h"
#include "paint/RegionMask.h"
#include "paint/WriteGuard.h"
#include "editor/ClassesPanel.h"
#include "editor/LabelDocument.h"
#include "editor/LabelEditor.h"
#include "editor/LabelCanvas.h"
#include "editor/PredictionBar.h"
#include "editor/ToolSettings.h"
#include "editor/ToolSettingsStore.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/PredictionCache.h"
#include "data/labels/RecoveryStore.h"
#include "data/project/DatasetRelabeler.h"
#include "data/project/RelabelTransaction.h"
#include "run/AtomicFile.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QHeaderView>
#include <QTableView>
#include <QTableWidget>
#include <QToolBar>
#include <QToolButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::browser::ImageListModel;
using segstudio::ui::shell::MainWindow;
using segstudio::ui::training::LiveFineTuner;

namespace {

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

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

    // The editor keeps its brush and tolerance in QSettings: each test starts from the defaults.
    void init() { segstudio::ui::editor::ToolSettingsStore::forget(); }

    // Issue 27, item 10, and issue 26: the first window (no saved layout) gives the canvas the
    // room: it opens in the Label workspace, where no training or prediction panel sits under the
    // canvas (test_Workspaces measures the canvas's share).
    void firstStartGivesTheCanvasTheRoom()
    {
        QSettings().clear();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(m_file), qPrintable(window.lastError()));
        QTRY_VERIFY(window.editor()->isVisible());
        QVERIFY(!window.training()->isVisible());
        QVERIFY(!window.predictions()->isVisible());
        QVERIFY(window.editor()->height() > window.height() / 2);
    }

    void startsOnTheStartPage()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.startPage()->isVisible());
        QVERIFY(!window.project());
    }

    // Predict as I label (issue 52.3): the Predictions panel's row switches the Training panel's
    // fine-tune, and the row shows what the fine-tune says.
    void predictAsILabelRowDrivesTheTrainingPanelsFineTune()
    {
        MainWindow window;
        auto* tuner = window.training()->findChild<LiveFineTuner*>(QStringLiteral("liveFineTuner"));
        QVERIFY(tuner);
        auto* status = window.predictions()->findChild<QLabel*>(QStringLiteral("learnStatus"));
        QVERIFY(status);
        window.predictions()->setLearnAsILabel(true, 3);
        QVERIFY(tuner->isEnabled());
        QCOMPARE(tuner->interval(), 3);
        QCOMPARE(status->text(), tuner->statusText());
        window.predictions()->setLearnAsILabel(false, 3);
        QVERIFY(!tuner->isEnabled());
        QCOMPARE(status->text(), tuner->statusText());
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
        segstudio::ui::browser::DatasetBrowser* browser = window.browser();
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

    // Issue 27, item 5: a filter that hides the image being labeled, cleared again, leaves the
    // editor on that image (it used to jump to the first one).
    void aFilterNeverChangesTheImageBeingLabeled()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(m_file), qPrintable(window.lastError()));
        segstudio::ui::browser::DatasetBrowser* browser = window.browser();
        QVERIFY(browser->selectEntry(2));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(2));
        auto* search = browser->findChild<QLineEdit*>(QStringLiteral("search"));
        QVERIFY(search);
        QTest::keyClicks(search, QStringLiteral("alp"));  // gamma is hidden, alpha shown
        QCOMPARE(browser->proxy()->rowCount(), 1);
        QCOMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(2));
        QVERIFY(!browser->currentEntry());
        QTest::keyClicks(search, QStringLiteral("zz"));  // nothing shown
        QCOMPARE(browser->proxy()->rowCount(), 0);
        search->clear();
        QCOMPARE(browser->proxy()->rowCount(), 4);
        QCOMPARE(browser->currentEntry(), std::optional<std::size_t>(2));
        QCOMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(2));
        // Next goes on from there, in the browser's (name) order: alpha beta delta gamma.
        browser->previousAction()->trigger();
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(3));
    }

    // Issue 27, item 9: a project opens on the first image the browser lists (by name), not on
    // the first of the project's own order.
    void opensOnTheFirstImageTheBrowserLists()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        segstudio::test::writeProject(dir.path(), {{"train/zulu.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                   {"val/bravo.png", Split::Val, LabelStatus::Unlabelled, {}, 0},
                                                   {"test/alpha.png", Split::Test, LabelStatus::Unlabelled, {}, 0}});
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(2));
        QCOMPARE(window.browser()->currentEntry(), std::optional<std::size_t>(2));
    }

    // Issue 9.6 and 9.7: redo on both keys; tool and class keys wherever focus is, text excepted.
    void shortcutsWorkWhereverFocusIs()
    {
        QTemporaryDir dir;
        segstudio::test::writeProject(dir.path(), {{"one.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                   {"two.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(0));
        segstudio::ui::editor::LabelEditor* editor = window.editor();
        const auto toolChecked = [editor](const char* id) {
            for (QAction* action : editor->toolActions())
                if (action->objectName() == QLatin1String("tool.") + QLatin1String(id))
                    return action->isChecked();
            return false;
        };

        // Focus in the classes table: B is the brush (not a type-ahead to "Building"), 2 a class.
        auto* table = editor->classesPanel()->findChild<QTableWidget*>();
        QVERIFY(table);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_E);
        QVERIFY(toolChecked("eraser"));
        QTest::keyClick(table, Qt::Key_B);
        QVERIFY(toolChecked("brush"));
        const int second = window.project()->schema().classes().at(1).id;
        QTest::keyClick(table, Qt::Key_2);
        QCOMPARE(editor->toolSettings()->currentClass(), second);

        // Focus on a thumbnail: E and ] still reach the editor.
        QListView* grid = window.browser()->gridView();
        grid->setFocus();
        QTest::keyClick(grid, Qt::Key_E);
        QVERIFY(toolChecked("eraser"));
        const int size = editor->toolSettings()->brushSize();
        QTest::keyClick(grid, Qt::Key_BracketRight);
        QVERIFY(editor->toolSettings()->brushSize() > size);

        // Typing in the search field types; it does not switch tools.
        auto* search = window.browser()->findChild<QLineEdit*>(QStringLiteral("search"));
        search->setFocus();
        QTest::keyClicks(search, QStringLiteral("b"));
        QCOMPARE(search->text(), QStringLiteral("b"));
        QVERIFY(toolChecked("eraser"));
        search->clear();

        // Undo with Ctrl+Z; redo with Ctrl+Shift+Z and with Ctrl+Y.
        grid->setFocus();
        QVERIFY(editor->fillUnlabelled(second));
        QVERIFY(editor->isModified());
        QTest::keyClick(grid, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(!editor->isModified());
        QTest::keyClick(grid, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(editor->isModified());
        QTest::keyClick(grid, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(!editor->isModified());
        QTest::keyClick(grid, Qt::Key_Y, Qt::ControlModifier);
        QVERIFY(editor->isModified());
    }

    // Issue 9.8: the shortcut list is made from the window's own actions and shortcuts.
    void shortcutListCoversEveryShortcut()
    {
        MainWindow window;
        const auto rows = segstudio::ui::shell::ShortcutsDialog::collect(window);
        const auto keysOf = [&rows](const QString& command) {
            for (const auto& row : rows)
                if (row.command == command)
                    return row.keys;
            return QString();
        };
        QCOMPARE(keysOf(QStringLiteral("Redo")), QStringLiteral("Ctrl+Shift+Z, Ctrl+Y"));
        QCOMPARE(keysOf(QStringLiteral("Brush")), QStringLiteral("B"));
        QCOMPARE(keysOf(QStringLiteral("Keyboard Shortcuts")), QStringLiteral("F1"));
        QCOMPARE(keysOf(QStringLiteral("Larger brush")), QStringLiteral("]"));
        QVERIFY(keysOf(QStringLiteral("Select the class with hotkey 1 (else class number 1 in the list)")) == QStringLiteral("1"));
        // Every action with a shortcut is listed, under its text.
        QStringList commands;
        for (const auto& row : rows)
            commands << row.command;
        for (const QAction* action : window.findChildren<QAction*>())
            if (!action->shortcuts().isEmpty() && !action->text().isEmpty())
                QVERIFY2(commands.contains(action->text().remove(u'&').remove(QStringLiteral("…")).trimmed()),
                         qPrintable(action->text()));
        // Tool tips say what a tool does, not only its name.
        for (QAction* tool : window.editor()->toolActions())
            QVERIFY2(tool->toolTip().size() > tool->text().size() + 20, qPrintable(tool->toolTip()));
    }

    // Issue 9.9-9.13: where the editor is, the browser following it, the panels' layout.
    void editorShowsWhereItIsAndTheBrowserFollows()
    {
        QTemporaryDir dir;
        segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                   {"beta.png", Split::Val, LabelStatus::Unlabelled, {}, 0},
                                                   {"gamma.png", Split::Val, LabelStatus::InProgress, {2}, 1},
                                                   {"delta.png", Split::Test, LabelStatus::Unlabelled, {}, 0}});
        MainWindow window;
        window.setWindowState(Qt::WindowNoState);
        window.resize(1400, 860);  // the default size of a first start until issue 27.10
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        segstudio::ui::browser::DatasetBrowser* browser = window.browser();
        segstudio::ui::editor::LabelEditor* editor = window.editor();
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
        QCOMPARE(editor->caption(), QStringLiteral("alpha.png · 1 / 4"));

        // Filtering out the open image keeps it open (issue 27.5: a filter never changes the image
        // being labeled), and the caption says it is not listed; Next goes into the list.
        auto* split = browser->findChild<QComboBox*>(QStringLiteral("splitFilter"));
        split->setCurrentIndex(split->findData(int(Split::Val)));
        QCOMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
        QVERIFY(!browser->currentEntry());
        QCOMPARE(editor->caption(), QStringLiteral("alpha.png · not in the filtered list (2 shown)"));
        // Sorting keeps the image and says where it went.
        browser->selectEntry(2);
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(2));
        QCOMPARE(editor->caption(), QStringLiteral("gamma.png · 2 / 2"));
        auto* sortKey = browser->findChild<QComboBox*>(QStringLiteral("sortKey"));
        sortKey->setCurrentIndex(sortKey->findText(QStringLiteral("Labelled %")));
        QCOMPARE(browser->currentEntry(), std::optional<std::size_t>(2));
        QCOMPARE(editor->caption(), QStringLiteral("gamma.png · %1 / 2").arg(browser->proxy()->rowOfEntry(2) + 1));

        // The detail list: the whole path in the tooltip, the name column stretching, elided in the middle.
        QTableView* list = browser->listView();
        QCOMPARE(list->textElideMode(), Qt::ElideMiddle);
        QCOMPARE(list->horizontalHeader()->sectionResizeMode(ImageListModel::NameColumn), QHeaderView::Stretch);
        const QString tooltip = browser->model()->index(2, 0).data(Qt::ToolTipRole).toString();
        QCOMPARE(tooltip, QString::fromStdString(window.project()->imagePath(2).string()));

        // Every tool option is on screen at the default width (none hidden in an overflow); the
        // heat map's legend is hidden on purpose while no heat map is drawn.
        for (QToolBar* bar : editor->toolBars())
            for (QAction* action : bar->actions())
                if (QWidget* widget = bar->widgetForAction(action); widget && action->isVisible())
                    QVERIFY2(widget->isVisible(), qPrintable(action->text() + QStringLiteral(" is hidden")));

        // The project tool bar does not move as the undo text grows.
        auto* projectBar = window.findChild<QToolBar*>(QStringLiteral("projectToolBar"));
        QVERIFY(projectBar);
        QList<QRect> before;
        for (QAction* action : projectBar->actions())
            if (QWidget* widget = projectBar->widgetForAction(action))
                before << widget->geometry();
        QVERIFY(editor->fillUnlabelled(window.project()->schema().classes().at(0).id));
        QVERIFY(window.undoAction()->text().size() > 5);  // "Undo Fill unlabelled"
        QApplication::processEvents();
        QList<QRect> after;
        for (QAction* action : projectBar->actions())
            if (QWidget* widget = projectBar->widgetForAction(action))
                after << widget->geometry();
        QCOMPARE(after, before);
        window.undoAction()->trigger();  // clean again: closing asks nothing

        // Another project: the panels forget the last one's log and plot ranges.
        window.predictions()->findChild<QPlainTextEdit*>(QStringLiteral("predictionsLog"))->setPlainText(QStringLiteral("old run output"));
        window.training()
            ->findChild<segstudio::ui::training::MetricsPlot*>(QStringLiteral("metricsPlot"))
            ->xAxis->setRange(0, 5000);
        QVERIFY(window.openProject(m_file));
        QVERIFY(window.predictions()->findChild<QPlainTextEdit*>(QStringLiteral("predictionsLog"))->toPlainText().isEmpty());
        QCOMPARE(window.training()
                     ->findChild<segstudio::ui::training::MetricsPlot*>(QStringLiteral("metricsPlot"))
                     ->xAxis->range()
                     .upper,
                 1.0);
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
            window.document()->setSplit({1}, Split::Test);
        }
        QCOMPARE(int(segstudio::data::Project::load(file.toStdString()).entry(1).split), int(Split::Test));
    }

    // Issue 22: a second window on a project open in the first is read-only with a lasting
    // banner (not a status line gone in seconds); its canvas takes no edit and it writes nothing.
    void aSecondWindowOpensTheProjectReadOnlyWithABanner()
    {
        QTemporaryDir dir;
        segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 1},
                                                   {"beta.png", Split::Train, LabelStatus::Labelled, {1, 2}, 0}});
        const QString file = dir.filePath(QStringLiteral("test.segstudio"));
        MainWindow first;
        QVERIFY2(first.openProject(file), qPrintable(first.lastError()));
        QTRY_COMPARE(first.editor()->currentIndex(), std::optional<std::size_t>(0));
        QVERIFY(first.readOnlyBanner()->text().isEmpty());
        QVERIFY(first.editor()->canvas()->isEditable());

        MainWindow second;
        second.show();
        QVERIFY2(second.openProject(file), qPrintable(second.lastError()));
        QTRY_COMPARE(second.editor()->currentIndex(), std::optional<std::size_t>(0));
        QVERIFY(second.document()->isReadOnly());
        QVERIFY(second.readOnlyBanner()->isVisible());
        QVERIFY2(second.readOnlyBanner()->text().contains(QStringLiteral("open in another SegStudio")),
                 qPrintable(second.readOnlyBanner()->text()));
        QVERIFY(!second.editor()->canvas()->isEditable());
        // Issue 60.9: in the Train workspace (the canvas hidden) the banner stays, and Train… is off;
        // a layout saved while no banner showed (the first window's) does not hide it either.
        second.workspaces()->switchTo(segstudio::ui::shell::Workspaces::Workspace::Train);
        QVERIFY(second.readOnlyBanner()->isVisible());
        QVERIFY(second.restoreState(first.saveState()));
        QVERIFY(second.readOnlyBanner()->isVisible());
        auto* train = second.training()->findChild<QPushButton*>(QStringLiteral("trainButton"));
        QVERIFY(train && !train->isEnabled());
        QVERIFY2(train->toolTip().contains(QStringLiteral("open in another SegStudio")), qPrintable(train->toolTip()));
        second.workspaces()->switchTo(segstudio::ui::shell::Workspaces::Workspace::Label);
        // Issue 47.12: what cannot act is disabled, and a click says why the first time.
        for (QAction* tool : second.editor()->toolActions())
            QVERIFY2(!tool->isEnabled(), qPrintable(tool->text()));
        for (QPushButton* button : second.findChildren<QPushButton*>())
            if (button->text() == QStringLiteral("Add…") || button->text() == QStringLiteral("Delete…")) {
                QVERIFY(!button->isEnabled());
                QVERIFY2(button->toolTip().contains(QStringLiteral("open in another SegStudio")), qPrintable(button->toolTip()));
            }
        QSignalSpy said(second.editor(), &segstudio::ui::editor::LabelEditor::statusMessage);
        QTest::mouseClick(second.editor()->canvas(), Qt::LeftButton, {}, second.editor()->canvas()->rect().center());
        QVERIFY(!said.isEmpty());
        QVERIFY2(said.last().at(0).toString().contains(QStringLiteral("open in another SegStudio")),
                 qPrintable(said.last().at(0).toString()));
        const QString labels = QString::fromStdString(second.document()->project().labelMapPath(0).string());
        const QByteArray before = readAll(labels);
        const QByteArray project = readAll(file);
        QVERIFY(!second.editor()->fillUnlabelled(2));  // no edit by the editor's commands either
        // Even pixels changed behind the canvas's back are never written.
        second.editor()->document()->paintRegion(
            segstudio::paint::RegionMask::ofValue(second.editor()->document()->labels(), 1), 2, segstudio::paint::WriteGuard(),
            QStringLiteral("stroke"));
        QVERIFY(second.editor()->save());  // nothing to write: read-only
        QVERIFY(second.closeProject());
        QCOMPARE(readAll(labels), before);
        QCOMPARE(readAll(file), project);
        QVERIFY(QFile::exists(file + QStringLiteral(".lock")));  // still the first window's
        QVERIFY(first.document()->setSplit({0}, Split::Test));
    }

    // Issue 22: SIGTERM/SIGHUP (a logout) end the window as a close does, without questions: the
    // unsaved stroke becomes the recovery copy (the label map stays as saved) and the lock goes.
    void shutDownKeepsUnsavedPixelsForRecoveryAndUnlocks()
    {
        QTemporaryDir dir;
        segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 1}});
        const QString file = dir.filePath(QStringLiteral("test.segstudio"));
        MainWindow window;
        QVERIFY2(window.openProject(file), qPrintable(window.lastError()));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(0));
        const QString labels = QString::fromStdString(window.document()->project().labelMapPath(0).string());
        const QByteArray saved = readAll(labels);
        const std::string image = window.document()->project().entry(0).image;
        const segstudio::data::RecoveryStore recovery(window.document()->project().root());
        window.editor()->document()->paintRegion(
            segstudio::paint::RegionMask::ofValue(window.editor()->document()->labels(), 1), 2, segstudio::paint::WriteGuard(),
            QStringLiteral("stroke"));
        QVERIFY(QFile::exists(file + QStringLiteral(".lock")));
        window.shutDown();
        QVERIFY(!window.document());
        QCOMPARE(readAll(labels), saved);
        QVERIFY(recovery.find(image).has_value());
        QVERIFY(!QFile::exists(file + QStringLiteral(".lock")));
    }

    // Issue 13: merging two classes is one project edit that Edit > Undo takes back: the label
    // maps, the editor's pixels (and its pixel history) and the browser's class counts follow.
    void mergeClassesThenUndoInTheWindow()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::InProgress, {0, 1}, 1},
                                                   {"beta.png", Split::Train, LabelStatus::Labelled, {1, 2}, 0},
                                                   {"gamma.png", Split::Train, LabelStatus::Labelled, {2}, 0}});
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        auto* editor = window.editor();
        auto* model = window.browser()->model();
        QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
        QTRY_VERIFY(model->statsComplete());
        const auto classesOf = [model](int row) { return model->index(row, ImageListModel::ClassesColumn).data().toString(); };
        QCOMPARE(classesOf(1), QStringLiteral("car, sky"));
        const cv::Mat before = editor->document()->labels().clone();
        QVERIFY(cv::countNonZero(before == 1) > 0);
        // A stroke first: the pixel history must outlive the merge and its undo.
        editor->document()->paintRegion(segstudio::paint::RegionMask::ofValue(before, 255), 0, segstudio::paint::WriteGuard(), QStringLiteral("stroke"));
        QVERIFY(editor->save());
        const cv::Mat painted = editor->document()->labels().clone();

        QVERIFY(editor->classesPanel()->mergeClasses(1, 2));  // car into sky, what the Classes panel's Merge does
        QVERIFY(window.document()->isBusy());
        // While the merge rewrites the label maps, images and classes wait; training does not.
        const auto dockWidget = [&window](const char* name) { return window.findChild<QDockWidget*>(QString::fromLatin1(name))->widget(); };
        QVERIFY(!dockWidget("browserDock")->isEnabled());
        QVERIFY(!dockWidget("classesDock")->isEnabled());
        QVERIFY(dockWidget("trainingDock")->isEnabled());
        QVERIFY(window.document()->waitForIdle());
        QTRY_VERIFY(dockWidget("browserDock")->isEnabled() && dockWidget("classesDock")->isEnabled());
        QVERIFY(!window.project()->schema().contains(1));
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 1), 0);
        QCOMPARE(cv::countNonZero(editor->document()->labels() == 2), cv::countNonZero(painted == 1));
        QTRY_VERIFY(model->statsComplete());
        QTRY_COMPARE(classesOf(1), QStringLiteral("sky"));
        QCOMPARE(classesOf(0), QStringLiteral("road, sky"));
        QCOMPARE(editor->document()->undoStack()->count(), 1);

        QVERIFY(window.undoAction()->isEnabled());
        QVERIFY2(window.undoAction()->text().contains(QStringLiteral("Merge")), qPrintable(window.undoAction()->text()));
        window.undoAction()->trigger();
        QVERIFY(window.document()->waitForIdle());
        QVERIFY(window.project()->schema().contains(1));
        QCOMPARE(cv::countNonZero(editor->document()->labels() != painted), 0);
        QTRY_VERIFY(model->statsComplete());
        QTRY_COMPARE(classesOf(1), QStringLiteral("car, sky"));
        QCOMPARE(classesOf(0), QStringLiteral("road, car"));
        QVERIFY(!editor->isModified());
        // Undo again goes on into the image's own history: the stroke painted before the merge.
        QVERIFY(window.undoAction()->isEnabled());
        QVERIFY2(window.undoAction()->text().contains(QStringLiteral("stroke")), qPrintable(window.undoAction()->text()));
        window.undoAction()->trigger();
        QCOMPARE(cv::countNonZero(editor->document()->labels() != before), 0);
        QVERIFY(!window.undoAction()->isEnabled());
        window.redoAction()->trigger();  // the stroke again
        QCOMPARE(cv::countNonZero(editor->document()->labels() != painted), 0);
    }

    // Issue 47.1: switching projects crashed in UndoRouter::update. The project stack's last
    // signals (clear() in the document's destructor) made it the group's active stack after it
    // had left the group, and the group kept it after it was freed. Four switches between two
    // projects, each with a project edit undone (the stack holds a command to redo) and a stroke.
    void switchingProjectsWithUndoHistoryKeepsNoStaleStack()
    {
        QTemporaryDir first, second;
        QVERIFY(first.isValid() && second.isValid());
        for (const QTemporaryDir* dir : {&first, &second})
            segstudio::test::writeProject(dir->path(), {{"alpha.png", Split::Unassigned, LabelStatus::InProgress, {0, 1}, 1},
                                                        {"beta.png", Split::Unassigned, LabelStatus::Labelled, {1, 2}, 0}});
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QUndoGroup* group = window.editor()->undoGroup();
        const auto activeIsAlive = [group] { return !group->activeStack() || group->stacks().contains(group->activeStack()); };
        for (int round = 0; round < 4; ++round) {
            const QTemporaryDir& dir = round % 2 == 0 ? first : second;
            QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
            QVERIFY(activeIsAlive());
            auto* editor = window.editor();
            QTRY_COMPARE(editor->currentIndex(), std::optional<std::size_t>(0));
            const cv::Mat labels = editor->document()->labels().clone();
            editor->document()->paintRegion(segstudio::paint::RegionMask::ofValue(labels, 255), 0, segstudio::paint::WriteGuard(),
                                            QStringLiteral("stroke"));
            QVERIFY(editor->save());  // (switching then asks nothing)
            QVERIFY(window.document()->setSplit({0, 1}, Split::Train));
            QVERIFY2(window.undoAction()->text().contains(QStringLiteral("Move")), qPrintable(window.undoAction()->text()));
            window.undoAction()->trigger();  // the split undone: the project stack has a redo
            QVERIFY(window.redoAction()->isEnabled());
            QVERIFY(activeIsAlive());
        }
        QVERIFY(window.closeProject());
        QVERIFY(activeIsAlive());
        QVERIFY(!window.undoAction()->isEnabled());
        QVERIFY(!window.redoAction()->isEnabled());
    }

    // Issue 46.12: a change killed part way (here a merge's journal left "changing") is put back
    // when the project opens, and the window says so in a note that stays until it is read.
    void anInterruptedChangePutBackOnOpenIsSaid()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0}});
        segstudio::data::DatasetRelabeler relabeler;
        relabeler.map(1, 0);
        segstudio::data::ClassSchema after = project.schema();
        after.remove(1);
        segstudio::data::RelabelTransaction step(segstudio::data::RelabelTransaction::undoRoot(project.file()) / "crashed");
        QVERIFY(!step.apply(project, relabeler, project.schema(), after).changed.empty());
        project.setSchema(after);
        project.save();  // ... and the process dies here
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("recoveredBox"));
        QVERIFY(box);
        QVERIFY(box->isVisible());
        QVERIFY2(box->text().contains(QStringLiteral("put back as they were")), qPrintable(box->text()));
        QVERIFY(window.project()->schema().contains(1));
        box->accept();
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
        const segstudio::data::Project* good = window.project();
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
        segstudio::ui::browser::DatasetBrowser* browser = window.browser();
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

    // Issue 12: Accept Prediction for a selection of images from the browser, as one edit that
    // Edit > Undo takes back to the exact bytes, the open image following on screen.
    void acceptPredictionForASelectionUndoes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::InProgress, {0}, 1},
                                                   {"beta.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                   {"gamma.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        // A run whose best checkpoint predicted alpha and beta: class 2 everywhere, sure.
        const QString run = dir.filePath(QStringLiteral("runs/r1"));
        QDir().mkpath(run + QStringLiteral("/checkpoints"));
        QFile weights(run + QStringLiteral("/checkpoints/best.pt"));
        QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write("weights") > 0);
        weights.close();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        const auto& project = *window.project();
        // The cache as the editor's default predictions leave it (adapting where the images differ).
        const segstudio::data::PredictionCache cache(run.toStdString(), (run + QStringLiteral("/checkpoints/best.pt")).toStdString(),
                                                     segstudio::ui::predictions::PredictionService::adaptationStamp(true));
        cache.prepare();
        const cv::Mat tree(segstudio::test::kImageHeight, segstudio::test::kImageWidth, CV_8UC1, cv::Scalar(2));
        const cv::Mat sure(tree.size(), CV_8UC1, cv::Scalar(250));
        for (std::size_t index : {std::size_t(0), std::size_t(1)}) {
            const std::string key = segstudio::data::PredictionCache::keyOf(project, index);
            segstudio::data::writeLabelMap(cache.classesFile(key), tree, project.schema());
            segstudio::data::writeImageGray(cache.confidenceFile(key), sure);
            segstudio::data::writeImageGray(cache.entropyFile(key), sure);
        }
        window.predictions()->setRunDirectory(run);
        QVERIFY(window.browser()->selectEntry(0));
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(0));
        const std::string alphaBefore = segstudio::run::readFile(project.labelMapPath(0));

        // Issue 47.10: the image without a prediction is counted before acting and named after.
        QCOMPARE(window.predictions()->unpredicted({0, 1, 2}), QList<std::size_t>{2});
        QSignalSpy said(window.document(), &segstudio::document::ProjectDocument::message);
        QVERIFY(window.acceptPredictions({0, 1, 2}, /*unlabelledOnly=*/true));
        QVERIFY(window.document()->waitForIdle());  // a document job: the window keeps painting meanwhile
        QVERIFY(!said.isEmpty());
        QVERIFY2(said.last().at(0).toString().contains(QStringLiteral("1 selected image(s) without a prediction were left as they are")),
                 qPrintable(said.last().at(0).toString()));
        // alpha: its unlabelled half became tree, its road half stays; beta got a map; gamma has no prediction.
        const cv::Mat alpha = segstudio::data::readLabelMap(project.labelMapPath(0), project.schema());
        QCOMPARE(int(alpha.at<std::uint8_t>(0, 0)), 0);
        QCOMPARE(int(alpha.at<std::uint8_t>(alpha.rows - 1, 0)), 2);
        QVERIFY(std::filesystem::exists(project.labelMapPath(1)));
        QVERIFY(!std::filesystem::exists(project.labelMapPath(2)));
        // The open image shows it at once.
        QTRY_COMPARE(int(window.editor()->document()->labels().at<std::uint8_t>(alpha.rows - 1, 0)), 2);

        QVERIFY(window.undoAction()->isEnabled());
        window.undoAction()->trigger();
        QCOMPARE(segstudio::run::readFile(project.labelMapPath(0)), alphaBefore);
        QVERIFY(!std::filesystem::exists(project.labelMapPath(1)));
        QTRY_COMPARE(int(window.editor()->document()->labels().at<std::uint8_t>(alpha.rows - 1, 0)), 255);
        window.redoAction()->trigger();
        QCOMPARE(int(segstudio::data::readLabelMap(project.labelMapPath(0), project.schema()).at<std::uint8_t>(alpha.rows - 1, 0)), 2);
    }

    // Issue 51, item 3: the browser's "Propagate Labels Along the Sequence" for one image asks
    // about its whole sequence; the prompt's Propagate runs one document job that Edit > Undo
    // takes back; the labelled frame is never written.
    void propagateAlongTheSequenceFromTheBrowser()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto written =
            segstudio::test::writeProject(dir.path(), {{"seq_00001.png", Split::Train, LabelStatus::Labelled, {0}, 0},
                                                       {"seq_00002.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                       {"seq_00003.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        // The same textured frame three times: the flow has something to hold on to, nothing moves.
        cv::Mat texture(segstudio::test::kImageHeight, segstudio::test::kImageWidth, CV_8UC3);
        cv::RNG(51).fill(texture, cv::RNG::UNIFORM, 0, 256);
        for (std::size_t index = 0; index < written.size(); ++index)
            segstudio::data::writeImageRgb(written.imagePath(index), texture);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(dir.filePath(QStringLiteral("test.segstudio"))), qPrintable(window.lastError()));
        const auto& project = *window.project();
        const std::string firstBefore = segstudio::run::readFile(project.labelMapPath(0));
        QString asked;
        QTimer::singleShot(0, &window, [&asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            auto* propagate = box ? box->findChild<QPushButton*>(QStringLiteral("propagateFramesButton")) : nullptr;
            if (!propagate)
                return;
            asked = box->text();
            propagate->click();
        });
        emit window.browser()->propagateAlongSequenceRequested({1});
        QVERIFY2(asked.contains(QStringLiteral("its 2 unlabelled frame(s)")), qPrintable(asked));
        QTRY_VERIFY_WITH_TIMEOUT(!window.document()->isBusy(), 30000);
        QCOMPARE(window.projectUndoStack()->count(), 1);
        QVERIFY(std::filesystem::exists(project.labelMapPath(1)));
        QVERIFY(project.entry(1).status == LabelStatus::InProgress);
        QCOMPARE(segstudio::run::readFile(project.labelMapPath(0)), firstBefore);

        QVERIFY(window.undoAction()->isEnabled());
        window.undoAction()->trigger();
        QVERIFY(!std::filesystem::exists(project.labelMapPath(1)));
        QVERIFY(!std::filesystem::exists(project.labelMapPath(2)));
        QVERIFY(project.entry(1).status == LabelStatus::Unlabelled);
        QCOMPARE(segstudio::run::readFile(project.labelMapPath(0)), firstBefore);
    }

    // Issue 52, item 1: the rooms talk through the signals and slots they offer (PanelLinks), not
    // through each other's parts: a suspect label from the Predictions panel opens in the editor
    // with the error layer on.
    void roomsTalkThroughTheirSignals()
    {
        using segstudio::ui::editor::PredictionLayer;
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(m_file), qPrintable(window.lastError()));
        auto* bar = window.findChild<segstudio::ui::editor::PredictionBar*>(QStringLiteral("predictionBar"));
        QVERIFY(bar);
        QVERIFY(bar->view() != PredictionLayer::View::Errors);
        emit window.predictions()->openImageRequested(2);
        QCOMPARE(bar->view(), PredictionLayer::View::Errors);
        QTRY_COMPARE(window.editor()->currentIndex(), std::optional<std::size_t>(2));
    }

    // Issue 50, section 4: a status message wider than the room beside the permanent fields is
    // cut off on screen ("…show predictio"); the status bar's tooltip holds it whole.
    void aLongStatusMessageIsWholeInTheTooltip()
    {
        MainWindow window;
        const QString text = QStringLiteral("Smart click uses GrabCut: no model prediction for this image (select a "
                                            "trained run in the Training panel, then come back to this image)");
        emit window.editor()->statusMessage(text);
        QCOMPARE(window.statusBar()->toolTip(), text);
        window.statusBar()->clearMessage();
        QVERIFY(window.statusBar()->toolTip().isEmpty());
    }

    // Issue 50, section 4: every CLI step a GUI user needs is in a menu: the ONNX export of the
    // selected run's model is under File > Export.
    void theModelExportIsInTheFileMenu()
    {
        MainWindow window;
        QAction* exportModel = window.predictions()->exportModelAction();
        QVERIFY(exportModel);
        QMenu* file = nullptr;
        for (QAction* top : window.menuBar()->actions())
            if (top->menu() && top->text().remove(u'&') == QStringLiteral("File"))
                file = top->menu();
        QVERIFY(file);
        bool listed = false;
        for (QAction* item : file->actions())
            if (item->menu() && item->menu()->actions().contains(exportModel))
                listed = true;
        QVERIFY(listed);
    }

    // Issue 50, section 3: the project tool bar and the editor's tool row are icons (Breeze,
    // embedded: a null pixmap means the resource or Qt Svg's icon engine is missing), the
    // workspaces keep their names, every icon's tooltip names its action and its key, and at
    // 1280 px neither row hides a button behind its "»".
    void toolBarsAreIconsThatFitAt1280()
    {
        QSettings().clear();  // the first start's layout: Label, the docks beside the canvas
        MainWindow window;
        window.setWindowState(Qt::WindowNoState);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openProject(m_file), qPrintable(window.lastError()));
        QTRY_VERIFY(window.editor()->isVisible());
        QApplication::processEvents();
        QVERIFY2(window.width() <= 1280,
                 qPrintable(QStringLiteral("the window cannot be narrower than %1 px").arg(window.width())));

        auto* projectBar = window.findChild<QToolBar*>(QStringLiteral("projectToolBar"));
        QVERIFY(projectBar);
        QToolBar* tools = window.editor()->toolBars().first();
        QStringList withText;
        int icons = 0;
        for (QToolBar* bar : {projectBar, tools}) {
            QCOMPARE(bar->toolButtonStyle(), Qt::ToolButtonIconOnly);
            for (QAction* action : bar->actions()) {
                if (action->isSeparator())
                    continue;
                const QString name = action->text().remove(u'&').remove(QStringLiteral("…"));
                auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action));
                QVERIFY2(button && button->isVisible(), qPrintable(name + QStringLiteral(" is hidden")));
                if (action->objectName().startsWith(QStringLiteral("workspace."))) {
                    QCOMPARE(button->toolButtonStyle(), Qt::ToolButtonTextOnly);
                    withText << name;
                    continue;
                }
                QVERIFY2(!action->icon().isNull(), qPrintable(name + QStringLiteral(" has no icon")));
                QVERIFY2(!action->icon().pixmap(22, 22).isNull(),
                         qPrintable(name + QStringLiteral("'s icon does not render")));
                ++icons;
                const QString tip = action->toolTip();
                QVERIFY2(tip.startsWith(name), qPrintable(name + QStringLiteral(": ") + tip));
                const QString key = action->shortcut().toString(QKeySequence::NativeText);
                QVERIFY2(key.isEmpty() || tip.section(u'\n', 0, 0).contains(QStringLiteral("(") + key),
                         qPrintable(name + QStringLiteral(": ") + tip));
            }
            if (auto* more = bar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button")))
                QVERIFY2(!more->isVisible(),
                         qPrintable(bar->windowTitle() + QStringLiteral(" hides buttons behind its overflow")));
        }
        // New, Open, Save, Undo, Redo, seven view actions; ten tools (Thin Stroke the tenth).
        QCOMPARE(icons, 5 + 7 + 10);
        QCOMPARE(withText, (QStringList{QStringLiteral("Label"), QStringLiteral("Train"), QStringLiteral("Review")}));
        QVERIFY2(tools->sizeHint().width() <= window.editor()->width(),
                 qPrintable(QStringLiteral("the tools need %1 px of the editor's %2")
                                .arg(tools->sizeHint().width())
                                .arg(window.editor()->width())));
        // Undo and Redo's stand-ins have no key of their own: their tooltips say the real actions' keys.
        int standIns = 0;
        for (QAction* action : projectBar->actions()) {
            QAction* real = action->text() == QStringLiteral("Undo")   ? window.undoAction()
                            : action->text() == QStringLiteral("Redo") ? window.redoAction()
                                                                       : nullptr;
            if (!real)
                continue;
            ++standIns;
            const QString key = real->shortcut().toString(QKeySequence::NativeText);
            QVERIFY2(action->toolTip().contains(QStringLiteral("(%1)").arg(key)), qPrintable(action->toolTip()));
        }
        QCOMPARE(standIns, 2);
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
};

QTEST_MAIN(TestMainWindow)
#include "test_MainWindow.moc"
