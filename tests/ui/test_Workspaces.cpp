#include "../metrics/TwoImageReport.h"
#include "UiTestProject.h"
#include "browser/DatasetBrowser.h"
#include "editor/LabelCanvas.h"
#include "editor/LabelEditor.h"
#include "predictions/EvaluationReportView.h"
#include "predictions/PredictionsDock.h"
#include "run/MetricsRecord.h"
#include "run/RunProgress.h"
#include "shell/MainWindow.h"
#include "shell/Workspaces.h"
#include "training/RunStatusLine.h"
#include "training/TrainingDock.h"

#include <QAction>
#include <QApplication>
#include <QHash>
#include <QDockWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::shell::MainWindow;
using segstudio::ui::shell::Workspaces;
using Workspace = segstudio::ui::shell::Workspaces::Workspace;

namespace {

QDockWidget* dock(const MainWindow& window, const char* name) { return window.findChild<QDockWidget*>(QString::fromLatin1(name)); }

double share(const QWidget* part, const QWidget* whole)
{
    return double(part->width()) * part->height() / (double(whole->width()) * whole->height());
}

// The window as a user gets it at 1600x1000, with the test project open.
void openAt1600x1000(MainWindow& window, const QString& project)
{
    window.setWindowState(Qt::WindowNoState);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(window.openProject(project), qPrintable(window.lastError()));
    QTRY_VERIFY(window.editor()->isVisible());
}

}  // namespace

class TestWorkspaces : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SegStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_Workspaces"));
        QVERIFY(m_dir.isValid());
        m_file = m_dir.filePath(QStringLiteral("test.segstudio"));
        segstudio::test::writeProject(m_dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                     {"beta.png", Split::Val, LabelStatus::Unlabelled, {}, 0},
                                                     {"gamma.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
    }

    void init() { QSettings().clear(); }

    // First start: Label, the canvas gets at least 60 % of a 1600x1000 window, no training
    // plot under it.
    void firstStartLabelsWithTheCanvasLarge()
    {
        MainWindow window;
        openAt1600x1000(window, m_file);
        QCOMPARE(window.workspaces()->current(), Workspace::Label);
        QVERIFY(window.workspaces()->action(Workspace::Label)->isChecked());
        QVERIFY(dock(window, "browserDock")->isVisible());
        QVERIFY(dock(window, "classesDock")->isVisible());
        QVERIFY(!dock(window, "trainingDock")->isVisible());
        QVERIFY(!dock(window, "predictionsDock")->isVisible());
        const QWidget* canvas = window.editor()->canvas();
        QTRY_VERIFY2(share(canvas, &window) >= 0.60, qPrintable(QStringLiteral("canvas %1x%2 of %3x%4")
                                                                    .arg(canvas->width()).arg(canvas->height())
                                                                    .arg(window.width()).arg(window.height())));
    }

    void eachWorkspaceShowsItsJob()
    {
        MainWindow window;
        openAt1600x1000(window, m_file);
        QCOMPARE(window.workspaces()->action(Workspace::Train)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_2));
        window.workspaces()->action(Workspace::Train)->trigger();
        QCOMPARE(window.workspaces()->current(), Workspace::Train);
        QTRY_VERIFY(dock(window, "trainingDock")->isVisible());
        QVERIFY(!window.editor()->isVisible());  // the canvas makes way for runs and plots
        QVERIFY(!dock(window, "browserDock")->isVisible());
        QTRY_VERIFY2(share(window.training(), &window) >= 0.6, "the training panel fills the window");

        window.workspaces()->action(Workspace::Review)->trigger();
        QTRY_VERIFY(window.editor()->isVisible());
        for (const char* name : {"browserDock", "predictionsDock", "evaluationDock"})
            QVERIFY2(dock(window, name)->isVisible(), name);
        QVERIFY(!dock(window, "trainingDock")->isVisible());

        window.workspaces()->action(Workspace::Label)->trigger();
        QVERIFY(!dock(window, "predictionsDock")->isVisible());
        QVERIFY(!dock(window, "evaluationDock")->isVisible());
        QVERIFY(window.editor()->isVisible());
    }

    // The user's arrangement of a workspace is kept: when switching, and in the next window.
    void layoutsArePerWorkspaceAndPerUser()
    {
        {
            MainWindow window;
            openAt1600x1000(window, m_file);
            dock(window, "historyDock")->close();
            dock(window, "classesDock")->close();
            window.workspaces()->switchTo(Workspace::Train);
            window.workspaces()->switchTo(Workspace::Label);
            QVERIFY(!dock(window, "classesDock")->isVisible());
            QVERIFY(dock(window, "browserDock")->isVisible());
            window.workspaces()->switchTo(Workspace::Review);
            QVERIFY(dock(window, "evaluationDock")->isVisible());  // Review's own layout
            window.close();
        }
        MainWindow again;
        openAt1600x1000(again, m_file);
        QCOMPARE(again.workspaces()->current(), Workspace::Review);  // where the user left
        again.workspaces()->switchTo(Workspace::Label);
        QVERIFY(!dock(again, "classesDock")->isVisible());
        QVERIFY(dock(again, "browserDock")->isVisible());
    }

    // Ctrl+1/2/3 typed, not triggered: a key held by another window action too is ambiguous to Qt
    // and does nothing (the editor's Actual Pixels had Ctrl+1).
    void ctrlDigitsSwitchWorkspacesAndNoKeyIsTakenTwice()
    {
        MainWindow window;
        openAt1600x1000(window, m_file);
        QHash<QString, QString> owner;
        for (const QAction* action : window.findChildren<QAction*>()) {
            if (action->shortcutContext() != Qt::WindowShortcut && action->shortcutContext() != Qt::ApplicationShortcut)
                continue;
            for (const QKeySequence& key : action->shortcuts()) {
                const QString text = key.toString();
                QVERIFY2(!owner.contains(text) || owner.value(text) == action->text(),
                         qPrintable(QStringLiteral("%1 is both %2 and %3").arg(text, owner.value(text), action->text())));
                owner.insert(text, action->text());
            }
        }
        window.activateWindow();
        QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(window.workspaces()->current(), Workspace::Train);
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window.workspaces()->current(), Workspace::Review);
        QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(window.workspaces()->current(), Workspace::Label);
    }

    // A report wider than its dock (a long checkpoint path, a wide table and matrix) scrolls in it:
    // it never widens the window past the screen (found in Review on a 1600-pixel screen).
    void theReportNeverWidensTheWindow()
    {
        MainWindow window;
        openAt1600x1000(window, m_file);
        window.workspaces()->switchTo(Workspace::Review);
        auto report = segstudio::test::twoImageReport();
        report.context() = {{"checkpoint", std::string(400, 'x') + "/checkpoints/best.pt"}, {"split", "val"}};
        window.predictions()->reportView()->setReport(report);
        QTRY_VERIFY(window.predictions()->reportView()->isVisible());
        QApplication::processEvents();
        QCOMPARE(window.size(), QSize(1600, 1000));
        QVERIFY(window.editor()->canvas()->width() > 400);
    }

    void steppingThroughImagesFromTrainOpensLabel()
    {
        MainWindow window;
        openAt1600x1000(window, m_file);
        window.workspaces()->switchTo(Workspace::Train);
        window.browser()->nextAction()->trigger();
        QCOMPARE(window.workspaces()->current(), Workspace::Label);
        QVERIFY(window.editor()->isVisible());
    }

    void withoutAProjectNoDockShows()
    {
        {
            MainWindow fresh;  // never had a project (found while a recovery question was up)
            fresh.show();
            QVERIFY(QTest::qWaitForWindowExposed(&fresh));
            for (const char* name : {"browserDock", "classesDock", "historyDock", "trainingDock", "predictionsDock", "evaluationDock"})
                QVERIFY2(!dock(fresh, name)->isVisible(), name);
        }
        MainWindow window;
        openAt1600x1000(window, m_file);
        QVERIFY(window.closeProject());
        for (const char* name : {"browserDock", "classesDock", "trainingDock", "predictionsDock", "evaluationDock"})
            QVERIFY2(!dock(window, name)->isVisible(), name);
        window.workspaces()->switchTo(Workspace::Train);  // no project: the start page stays
        QVERIFY(!dock(window, "trainingDock")->isVisible());
    }

    // The Label workspace's one-line run status.
    void runStatusLineSaysProgressBestAndTimeLeft()
    {
        segstudio::run::RunProgress progress;
        QVERIFY(segstudio::ui::training::RunStatusLine::describe(QStringLiteral("r1"), progress).isEmpty());
        segstudio::run::MetricsRecord info;
        info.kind = segstudio::run::MetricsRecord::Kind::Run;
        info.run.epochs = 10;
        info.run.iterationsPerEpoch = 10;
        info.run.totalIterations = 100;
        auto first = segstudio::run::MetricsRecord::train(1, 10);
        first.elapsedSeconds = 20;
        auto train = segstudio::run::MetricsRecord::train(5, 50);
        train.elapsedSeconds = 100;
        auto val = segstudio::run::MetricsRecord::val(5, 50);
        val.meanIoU = 0.4567;
        val.elapsedSeconds = 100;
        progress.add({info, first, train, val});
        const QString line = segstudio::ui::training::RunStatusLine::describe(QStringLiteral("r1"), progress);
        QVERIFY2(line.startsWith(QStringLiteral("r1 · training 50 %")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("val mIoU 0.457")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("left")), qPrintable(line));
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
};

QTEST_MAIN(TestWorkspaces)
#include "test_Workspaces.moc"
