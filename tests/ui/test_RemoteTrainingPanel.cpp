// Issue 64.2: "Train on…" in the Training panel, for real: a real sshd on localhost is the other
// machine (keys made by the test), this build's segstudio-train the trainer there. The panel packs
// here, trains there, mirrors the run folder back (plots, state, best checkpoint), stops the
// trainer there, follows a run again after the panel was closed, and rides out a dropped
// connection without stopping the run.
#include "LocalSshServer.h"
#include "UiTestProject.h"
#include "remote/RemoteRunRecord.h"
#include "training/RunsTable.h"
#include "training/TrainDialog.h"
#include "training/TrainSettingsStore.h"
#include "training/TrainingDock.h"
#include "training/TrainingLauncher.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::run::RunState;
using namespace segstudio::ui::training;

class TestRemoteTrainingPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void theDialogChoosesAMachineOverSsh();
    void aRunTrainsThereAndThePanelFollowsIt();
    void stopReachesItThereAndAReopenedPanelFollowsIt();
    void aDroppedConnectionNeverStopsTheRun();
    void stopWhileTheLinkIsDownLetsTheRunGoAndItIsFollowedAgain();

private:
    TrainingLauncher::Settings settingsThere(int epochs) const;
    std::unique_ptr<TrainingDock> panel() const;
    static TrainingLauncher* launcherOf(TrainingDock& dock) { return dock.findChild<TrainingLauncher*>(QStringLiteral("trainingLauncher")); }
    // The pid of the trainer there (the far side is this host).
    static qint64 trainerThere(const QString& runDir);

    QTemporaryDir m_dir;
    std::unique_ptr<segstudio::remotetest::LocalSshServer> m_server;
    QString m_projectFile;
};

void TestRemoteTrainingPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("SegStudioTest"));
    QCoreApplication::setApplicationName(QStringLiteral("test_RemoteTrainingPanel"));
    QVERIFY(m_dir.isValid());
    const auto project = segstudio::test::writeProject(m_dir.filePath(QStringLiteral("project")),
                                                       {{"a.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                        {"b.png", Split::Train, LabelStatus::Labelled, {1, 2}, 0},
                                                        {"c.png", Split::Val, LabelStatus::Labelled, {0, 2}, 1}});
    m_projectFile = QString::fromStdString(project.file().string());
    if (const QString missing = segstudio::remotetest::LocalSshServer::missing(); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    m_server = std::make_unique<segstudio::remotetest::LocalSshServer>(m_dir.filePath(QStringLiteral("sshd")));
    if (const QString failed = m_server->start(); !failed.isEmpty())
        QFAIL(qPrintable(QStringLiteral("the local sshd did not start: ") + failed));
}

TrainingLauncher::Settings TestRemoteTrainingPanel::settingsThere(int epochs) const
{
    TrainingLauncher::Settings settings;
    settings.model = QStringLiteral("segnet-tiny");
    settings.epochs = epochs;
    settings.height = 32;
    settings.width = 48;
    settings.batch = 2;
    settings.devices = {QStringLiteral("cpu")};  // this computer's: not passed there
    auto target = m_server->target();
    target.trainer = SEGSTUDIO_TRAIN_EXE;
    target.folder = m_dir.filePath(QStringLiteral("far-side")).toStdString();
    settings.where = target;
    return settings;
}

std::unique_ptr<TrainingDock> TestRemoteTrainingPanel::panel() const
{
    auto dock = std::make_unique<TrainingDock>();
    dock->setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
    dock->setProjectFile(m_projectFile);
    return dock;
}

qint64 TestRemoteTrainingPanel::trainerThere(const QString& runDir)
{
    const auto record = segstudio::remote::RemoteRunRecord::read(runDir.toStdString());
    return record ? record->pid : 0;
}

void TestRemoteTrainingPanel::theDialogChoosesAMachineOverSsh()
{
    TrainDialog dialog(QStringLiteral("r"), {}, {}, TrainingLauncher::builtInModels(), nullptr,
                       {{QStringLiteral("cpu"), QString(), 0}});
    auto* trainOn = dialog.findChild<QComboBox*>(QStringLiteral("trainOn"));
    QVERIFY(trainOn);
    QVERIFY(!dialog.settings().where);  // this computer by default
    trainOn->setCurrentIndex(1);  // a machine over SSH
    QVERIFY(!dialog.canTrain());
    QCOMPARE(dialog.problem(), QStringLiteral("Name the machine to train on."));
    dialog.findChild<QLineEdit*>(QStringLiteral("targetHost"))->setText(QStringLiteral("gpu1"));
    dialog.findChild<QLineEdit*>(QStringLiteral("targetUser"))->setText(QStringLiteral("ana"));
    QVERIFY2(dialog.canTrain(), qPrintable(dialog.problem()));
    const auto settings = dialog.settings();
    QVERIFY(settings.where);
    QCOMPARE(QString::fromStdString(settings.where->describe()), QStringLiteral("ana@gpu1"));
    // This computer's devices do not apply there.
    int devices = 0;
    for (QCheckBox* check : dialog.findChildren<QCheckBox*>())
        if (check->property("device").isValid()) {
            ++devices;
            QVERIFY(!check->isEnabled());
        }
    QCOMPARE(devices, 1);
    // Remembered with the project's other choices.
    const auto back = TrainSettingsStore::fromMap(TrainSettingsStore::toMap(settings), {});
    QVERIFY(back.where);
    QCOMPARE(back.where->destination(), std::string("ana@gpu1"));
    QVERIFY(!TrainSettingsStore::fromMap(TrainSettingsStore::toMap({}), settings).where);
}

void TestRemoteTrainingPanel::aRunTrainsThereAndThePanelFollowsIt()
{
    auto dock = panel();
    QSignalSpy finished(dock.get(), &TrainingDock::trainingFinished);
    QVERIFY(dock->startTraining(QStringLiteral("far"), settingsThere(2)));
    QVERIFY(finished.wait(300000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    const QString run = dock->currentRunDirectory();
    QTRY_VERIFY(dock->progress().state() == RunState::Finished);  // mirrored home, read by the panel
    QVERIFY(dock->progress().bestMeanIoU().has_value());
    QVERIFY(QFileInfo::exists(run + QStringLiteral("/checkpoints/best.pt")));  // predictions work here
    QVERIFY(QFileInfo::exists(run + QStringLiteral("/remote.json")));
    auto* table = dock->findChild<RunsTable*>();
    QVERIFY(table);
    const auto rows = table->findItems(QStringLiteral("far"), Qt::MatchExactly, RunsTable::Name);
    QCOMPARE(rows.size(), 1);
    QVERIFY2(rows.first()->text(RunsTable::Where).contains(QStringLiteral("@127.0.0.1:")),
             qPrintable(rows.first()->text(RunsTable::Where)));
}

void TestRemoteTrainingPanel::stopReachesItThereAndAReopenedPanelFollowsIt()
{
    QString run;
    {
        auto dock = panel();
        QVERIFY(dock->startTraining(QStringLiteral("long"), settingsThere(100000)));
        run = dock->currentRunDirectory();
        QTRY_VERIFY_WITH_TIMEOUT(dock->progress().state() == RunState::Training && dock->progress().iteration() > 0, 120000);
        QVERIFY(dock->confirmClose(nullptr));  // nothing to ask: it trains there
    }  // the panel is gone; the run there goes on
    const qint64 pid = trainerThere(run);
    QVERIFY(pid > 0);
    QCOMPARE(::kill(pid_t(pid), 0), 0);

    auto dock = panel();  // the project opened again
    QVERIFY(launcherOf(*dock)->isRemote());
    QCOMPARE(dock->currentRunDirectory(), run);
    const auto before = dock->progress().iteration();
    QTRY_VERIFY_WITH_TIMEOUT(dock->progress().iteration() > before, 120000);  // followed: new records come home
    QSignalSpy finished(dock.get(), &TrainingDock::trainingFinished);
    dock->stopTraining();
    QVERIFY(finished.wait(120000));
    QVERIFY(!finished.at(0).at(0).toBool());
    QTRY_VERIFY(dock->progress().state() == RunState::Stopped);
    const QString there = QString::fromStdString(segstudio::remote::RemoteRunRecord::read(run.toStdString())->remoteRunDir);
    QVERIFY(QFileInfo::exists(there + QStringLiteral("/checkpoints/last.pt")));  // written there, for a resume there

    // Resume goes on there, from that checkpoint, with a trainer of its own (a new pid).
    const qint64 stoppedTrainer = trainerThere(run);
    auto* resumeButton = dock->findChild<QPushButton*>(QStringLiteral("resumeButton"));
    QVERIFY(resumeButton && resumeButton->isEnabled());
    const int epochs = dock->progress().epoch() + 1;
    QSignalSpy resumed(dock.get(), &TrainingDock::trainingFinished);
    QVERIFY(launcherOf(*dock)->resume(run, epochs));
    QVERIFY(resumed.wait(120000));
    QVERIFY2(resumed.at(0).at(0).toBool(), qPrintable(resumed.at(0).at(1).toString()));
    QTRY_VERIFY(dock->progress().state() == RunState::Finished);
    QCOMPARE(dock->progress().epoch(), epochs);
    QVERIFY(trainerThere(run) != stoppedTrainer);
}

void TestRemoteTrainingPanel::aDroppedConnectionNeverStopsTheRun()
{
    auto dock = panel();
    QSignalSpy connection(launcherOf(*dock), &TrainingLauncher::connectionChanged);
    QVERIFY(dock->startTraining(QStringLiteral("dropped"), settingsThere(100000)));
    const QString run = dock->currentRunDirectory();
    QTRY_VERIFY_WITH_TIMEOUT(dock->progress().state() == RunState::Training && dock->progress().iteration() > 0, 120000);
    m_server->stop();  // no new connection gets through
    QTRY_VERIFY_WITH_TIMEOUT(!connection.isEmpty(), 60000);
    QCOMPARE(connection.last().at(0).toBool(), false);
    QVERIFY2(connection.last().at(1).toString().contains(QStringLiteral("the run goes on there")),
             qPrintable(connection.last().at(1).toString()));
    QVERIFY(launcherOf(*dock)->isBusy());
    QCOMPARE(::kill(pid_t(trainerThere(run)), 0), 0);  // still training there
    QVERIFY(m_server->start().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(connection.last().at(0).toBool(), 120000);
    const auto before = dock->progress().iteration();
    QTRY_VERIFY_WITH_TIMEOUT(dock->progress().iteration() > before, 120000);
    QSignalSpy finished(dock.get(), &TrainingDock::trainingFinished);
    dock->stopTraining();
    QVERIFY(finished.wait(120000));
    QTRY_VERIFY(dock->progress().state() == RunState::Stopped);
}

// Stop while the far side cannot be reached: the request cannot get there, so the panel stops
// following (saying the run may go on there) instead of waiting for ever; the run goes on, and the
// project opened again follows it and can stop it.
void TestRemoteTrainingPanel::stopWhileTheLinkIsDownLetsTheRunGoAndItIsFollowedAgain()
{
    QString run;
    {
        auto dock = panel();
        QSignalSpy connection(launcherOf(*dock), &TrainingLauncher::connectionChanged);
        QVERIFY(dock->startTraining(QStringLiteral("unreachable"), settingsThere(100000)));
        run = dock->currentRunDirectory();
        QTRY_VERIFY_WITH_TIMEOUT(dock->progress().state() == RunState::Training && dock->progress().iteration() > 0, 120000);
        m_server->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!connection.isEmpty(), 60000);
        QSignalSpy finished(dock.get(), &TrainingDock::trainingFinished);
        dock->stopTraining();
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.at(0).at(1).toString().contains(QStringLiteral("may go on there")),
                 qPrintable(finished.at(0).at(1).toString()));
        QVERIFY(!launcherOf(*dock)->isBusy());
    }
    QCOMPARE(::kill(pid_t(trainerThere(run)), 0), 0);  // still training there
    QVERIFY(m_server->start().isEmpty());
    auto dock = panel();
    QVERIFY(launcherOf(*dock)->isRemote());
    QCOMPARE(dock->currentRunDirectory(), run);
    QSignalSpy finished(dock.get(), &TrainingDock::trainingFinished);
    dock->stopTraining();
    QVERIFY(finished.wait(120000));
    QTRY_VERIFY(dock->progress().state() == RunState::Stopped);
}

QTEST_MAIN(TestRemoteTrainingPanel)
#include "test_RemoteTrainingPanel.moc"
