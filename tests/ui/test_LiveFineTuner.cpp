#include "UiTestProject.h"

#include "common/TrainerArguments.h"
#include "training/LiveFineTuner.h"
#include "data/project/DatasetPacker.h"
#include "training/TrainingLauncher.h"
#include "pack/PackReader.h"
#include "run/RunLayout.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::training::LiveFineTuner;
using segstudio::ui::training::TrainingLauncher;

namespace {

QJsonObject readJson(const QString& file)
{
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(in.readAll()).object();
}

QString checkpointOf(const QString& runDir)
{
    return QString::fromStdString(segstudio::run::RunLayout(runDir.toStdString()).checkpointToUse().string());
}

// A tiny project: two labelled training images the base run learns from, two more the user
// labels later, and a labelled val image that a fine-tune must never learn from.
segstudio::data::Project tinyProject(const QString& dir)
{
    return segstudio::test::writeProject(dir, {{"a.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                               {"b.png", Split::Train, LabelStatus::Labelled, {1, 2}, 0},
                                               {"c.png", Split::Val, LabelStatus::Labelled, {0, 2}, 0},
                                               {"d.png", Split::Train, LabelStatus::Unlabelled, {2, 0}, 0},
                                               {"e.png", Split::Train, LabelStatus::Unlabelled, {1, 0}, 0}});
}

// A run as the tuner needs one: a checkpoint (its bytes do not matter to a fake trainer) and the
// train pack whose size the fine-tune packs at.
QString writeRun(const QString& dir, const QString& name, const segstudio::data::Project& project)
{
    const QString run = QDir(dir).filePath(QStringLiteral("runs/") + name);
    QDir().mkpath(run + QStringLiteral("/checkpoints"));
    QFile checkpoint(run + QStringLiteral("/checkpoints/last.pt"));
    checkpoint.open(QIODevice::WriteOnly);
    segstudio::data::PackOptions options;
    options.height = 32;
    options.width = 48;
    segstudio::data::DatasetPacker::pack(project, Split::Train, (run + QStringLiteral("/train.pack")).toStdString(), options);
    return run;
}

// A stand-in for segstudio-train: a shell script of that body.
QString writeTrainerScript(const QString& dir, const QString& name, const QByteArray& body)
{
    const QString file = QDir(dir).filePath(name);
    QFile script(file);
    script.open(QIODevice::WriteOnly);
    script.write("#!/bin/sh\n" + body);
    script.close();
    script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
    return file;
}

// metrics.jsonl records as the trainer writes them: the run's first, then a validation.
QByteArray runRecord()
{
    return "{\"kind\": \"run\", \"epoch\": 0, \"iteration\": 0, \"segstudio_version\": \"test\", \"model\": \"segnet-tiny\", "
           "\"epochs\": 1}";
}

QByteArray valRecord(double meanIoU)
{
    return "{\"kind\": \"val\", \"epoch\": 1, \"iteration\": 4, \"loss\": 1.0, \"accuracy\": 0.5, \"mean_iou\": " +
           QByteArray::number(meanIoU) + "}";
}

// The run's config (a JSON object) and one validation of that mean IoU.
void writeValidation(const QString& run, const QString& config, double meanIoU)
{
    QFile configFile(run + QStringLiteral("/config.json"));
    configFile.open(QIODevice::WriteOnly);
    configFile.write(config.toUtf8());
    QFile metrics(run + QStringLiteral("/metrics.jsonl"));
    metrics.open(QIODevice::WriteOnly);
    metrics.write(runRecord() + "\n" + valRecord(meanIoU) + "\n");
}

// The tuner as the Predictions panel sets it up, learning after every labelled image.
void setUp(LiveFineTuner& tuner, const QString& trainer, const segstudio::data::Project& project, const QString& base)
{
    tuner.setTrainer(trainer);
    tuner.setProject(&project);
    tuner.setBaseRun(base);
    tuner.setInterval(1);
    tuner.setEnabled(true);
}

}  // namespace

// "Predict as I label" (issue 23, item 3): the fine-tune of the selected run as labels come.
class TestLiveFineTuner : public QObject {
    Q_OBJECT

private slots:
    void liveRunNamesAndPlan()
    {
        QCOMPARE(LiveFineTuner::liveRunName(QStringLiteral("20261125-101010")), QStringLiteral("20261125-101010-live"));
        QCOMPARE(LiveFineTuner::liveRunName(QStringLiteral("camvid-live")), QStringLiteral("camvid-live"));
        // A fine-tune is sized by time (issue 47.11), two minutes unless told otherwise.
        QCOMPARE(LiveFineTuner().budgetSeconds(), 120);
        const QStringList arguments = segstudio::ui::common::TrainerArguments::fineTune(
            QStringLiteral("/p/runs/base"), QStringLiteral("/p/runs/base/checkpoints/best.pt"),
            QStringLiteral("/p/runs/.base-live.next/train.pack"), QStringLiteral("/p/runs/.base-live.next"), 7, 1e-3,
            QStringLiteral("/p/runs/base/val.pack"));
        const auto valueOf = [&arguments](const char* option) {
            const int at = int(arguments.indexOf(QString::fromUtf8(option)));
            return at >= 0 && at + 1 < arguments.size() ? arguments.at(at + 1) : QStringLiteral("<absent>");
        };
        QCOMPARE(arguments.first(), QStringLiteral("train"));
        QCOMPARE(valueOf("--config"), QStringLiteral("/p/runs/base/config.json"));
        QCOMPARE(valueOf("--init-from"), QStringLiteral("/p/runs/base/checkpoints/best.pt"));
        QCOMPARE(valueOf("--train-pack"), QStringLiteral("/p/runs/.base-live.next/train.pack"));
        // One validation, at the end, on the base's validation images (issue 60.8): what decides
        // whether the fine-tune may take over.
        QCOMPARE(valueOf("--val-pack"), QStringLiteral("/p/runs/base/val.pack"));
        QCOMPARE(valueOf("--val-epochs"), QStringLiteral("1000000"));
        QCOMPARE(valueOf("-o"), QStringLiteral("/p/runs/.base-live.next"));
        QCOMPARE(valueOf("--time-budget"), QStringLiteral("7s"));
        QCOMPARE(valueOf("--epochs"), QStringLiteral("<absent>"));
        QCOMPARE(valueOf("--lr"), QStringLiteral("0.001"));
    }

    void offWithoutARunWithACheckpoint()
    {
        QTemporaryDir dir;
        auto project = tinyProject(dir.path());
        LiveFineTuner tuner;
        tuner.setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
        tuner.setProject(&project);
        QCOMPARE(tuner.state(), LiveFineTuner::State::Off);
        tuner.setEnabled(true);
        QCOMPARE(tuner.state(), LiveFineTuner::State::NoModel);
        QVERIFY(tuner.statusText().contains(QStringLiteral("Select a run")));
        QDir(dir.path()).mkpath(QStringLiteral("runs/empty"));
        tuner.setBaseRun(QDir(dir.path()).filePath(QStringLiteral("runs/empty")));
        QCOMPARE(tuner.state(), LiveFineTuner::State::NoModel);
    }

    // The whole loop with this build's real trainer: counting from the moment it is turned on,
    // waiting for the user's training, then a fine-tune that starts from the base run's weights,
    // learns from the labelled training images only, and becomes runs/<base>-live.
    void learnsFromNewlyLabelledImagesIntoTheLiveRun()
    {
        QTemporaryDir dir;
        auto project = tinyProject(dir.path());
        const QString projectFile = QString::fromStdString(project.file().string());
        const QString base = QDir(dir.path()).filePath(QStringLiteral("runs/base"));
        {
            TrainingLauncher launcher;
            launcher.setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
            TrainingLauncher::Settings settings;
            settings.model = QStringLiteral("segnet-tiny");
            settings.epochs = 1;
            settings.height = 32;
            settings.width = 48;
            settings.batch = 2;
            QSignalSpy finished(&launcher, &TrainingLauncher::finished);
            QVERIFY(launcher.start(projectFile, base, settings));
            QVERIFY(finished.wait(600000));
            QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        }
        const QString baseCheckpoint = checkpointOf(base);
        QVERIFY(QFile::exists(baseCheckpoint));
        // Without its validation images the base cannot be compared with: the fine-tune is kept
        // unvalidated (the validation gate has tests of its own below, with a stand-in trainer).
        QVERIFY(QFile::remove(QDir(base).filePath(QStringLiteral("val.pack"))));

        LiveFineTuner tuner;
        tuner.setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
        tuner.setProject(&project);
        tuner.setBaseRun(base);
        tuner.setInterval(2);
        tuner.setBudgetSeconds(3);
        int saves = 0;
        tuner.setBeforeLearning([&] {
            project.save();
            return ++saves > 0;
        });
        bool userTraining = false;
        tuner.setUserTrainingBusy([&userTraining] { return userTraining; });
        QSignalSpy learned(&tuner, &LiveFineTuner::learned);
        tuner.setEnabled(true);
        // a and b were labelled before it was turned on: they do not count as new.
        QCOMPARE(tuner.state(), LiveFineTuner::State::Counting);
        QCOMPARE(tuner.newlyLabelled(), 0);
        QVERIFY2(tuner.statusText().contains(QStringLiteral("after 2 more labelled training images")), qPrintable(tuner.statusText()));

        project.setStatus(3, LabelStatus::Labelled);  // d
        tuner.labelsChanged();
        QCOMPARE(tuner.newlyLabelled(), 1);
        QCOMPARE(tuner.state(), LiveFineTuner::State::Counting);
        userTraining = true;
        project.setStatus(4, LabelStatus::Labelled);  // e: due, but the user trains
        tuner.labelsChanged();
        QCOMPARE(tuner.state(), LiveFineTuner::State::Waiting);
        QCOMPARE(saves, 0);
        userTraining = false;
        tuner.labelsChanged();  // the user's training ended
        QCOMPARE(saves, 1);
        QVERIFY(tuner.state() == LiveFineTuner::State::Packing);
        QVERIFY2(tuner.statusText().contains(QStringLiteral("4 labelled")), qPrintable(tuner.statusText()));
        // While it learns the status says for how long, and then how far it is.
        QTRY_VERIFY_WITH_TIMEOUT(tuner.state() == LiveFineTuner::State::Learning || !learned.isEmpty(), 600000);
        if (learned.isEmpty())
            QVERIFY2(tuner.statusText().contains(QStringLiteral("for 3 s")), qPrintable(tuner.statusText()));
        QVERIFY(learned.wait(600000) || !learned.isEmpty());
        QCOMPARE(learned.size(), 1);

        const QString live = QDir(dir.path()).filePath(QStringLiteral("runs/base-live"));
        QCOMPARE(learned.at(0).at(0).toString(), live);
        QCOMPARE(learned.at(0).at(1).toBool(), false);  // not validated better: no score to compare
        QVERIFY2(learned.at(0).at(2).toString().contains(QStringLiteral("no validation score")),
                 qPrintable(learned.at(0).at(2).toString()));
        QCOMPARE(tuner.liveRunDirectory(), live);
        QVERIFY(QFile::exists(checkpointOf(live)));
        const QJsonObject config = readJson(QDir(live).filePath(QStringLiteral("config.json")));
        QCOMPARE(config.value(QStringLiteral("initFrom")).toString(), baseCheckpoint);
        QCOMPARE(config.value(QStringLiteral("model")).toString(), QStringLiteral("segnet-tiny"));
        QCOMPARE(config.value(QStringLiteral("valPack")).toString(), QString());
        // The four labelled training images, not the val one, at the base run's size.
        const segstudio::pack::PackReader pack(QDir(live).filePath(QStringLiteral("train.pack")).toStdString());
        QCOMPARE(int(pack.size()), 4);
        QCOMPARE(int(pack.spec().height), 32);
        QCOMPARE(int(pack.spec().width), 48);
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/.base-live.next"))));

        QCOMPARE(tuner.state(), LiveFineTuner::State::Counting);
        QCOMPARE(tuner.newlyLabelled(), 0);
        QVERIFY2(tuner.statusText().contains(QStringLiteral("from 4 labelled images")), qPrintable(tuner.statusText()));
        const QJsonObject record = readJson(QDir(dir.path()).filePath(QStringLiteral("runs/.base-live.json")));
        QCOMPARE(record.value(QStringLiteral("learnedFrom")).toArray().size(), 4);

        // A restart remembers what the live model learned from; continuing from the live run
        // keeps the same record.
        LiveFineTuner again;
        again.setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
        again.setProject(&project);
        again.setBaseRun(live);
        again.setEnabled(true);
        QCOMPARE(again.newlyLabelled(), 0);
        QCOMPARE(again.learnedAt().isValid(), true);
        QCOMPARE(again.liveRunDirectory(), live);
    }

    // A trainer that fails: the reason is shown, nothing replaces the live run, and it is not
    // tried again on every status change, only after another image is labelled.
    void aFailureIsReportedAndRetriedOnlyAfterMoreLabels()
    {
        QTemporaryDir dir;
        auto project = tinyProject(dir.path());
        const QString base = writeRun(dir.path(), QStringLiteral("base"), project);
        const QString trainer = writeTrainerScript(
            dir.path(), QStringLiteral("failing-trainer"),
            "echo \"$0 was called $*\" >> \"$0.calls\"\necho \"train.pack: No space left on device\"\nexit 2\n");

        LiveFineTuner tuner;
        setUp(tuner, trainer, project, base);
        QSignalSpy changed(&tuner, &LiveFineTuner::stateChanged);
        project.setStatus(3, LabelStatus::Labelled);
        tuner.labelsChanged();
        QTRY_VERIFY_WITH_TIMEOUT(tuner.state() == LiveFineTuner::State::Failed, 60000);
        QVERIFY2(tuner.statusText().contains(QStringLiteral("No space left on device")), qPrintable(tuner.statusText()));
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/base-live"))));
        const auto calls = [&trainer] {
            QFile log(trainer + QStringLiteral(".calls"));
            return log.open(QIODevice::ReadOnly) ? int(log.readAll().count('\n')) : 0;
        };
        QCOMPARE(calls(), 1);
        tuner.labelsChanged();  // a status change without a new labelled image
        QCOMPARE(tuner.state(), LiveFineTuner::State::Failed);
        project.setStatus(4, LabelStatus::Labelled);
        tuner.labelsChanged();
        QTRY_COMPARE_WITH_TIMEOUT(calls(), 2, 60000);
    }

    // Issue 47.2: selecting another run while a fine-tune runs trained with the new base's
    // config and checkpoint on a pack that was not there, and lost the finished model ("cannot
    // move the new model"). A step keeps the paths of the base it started from; the next counts
    // against the run selected meanwhile. The fake trainer waits at a gate, so the switch
    // happens while the pack step runs.
    void selectingAnotherRunDuringAFineTuneKeepsItsModel()
    {
        QTemporaryDir dir;
        auto project = tinyProject(dir.path());
        const QString first = writeRun(dir.path(), QStringLiteral("first"), project);
        const QString second = writeRun(dir.path(), QStringLiteral("second"), project);
        const QString trainer = writeTrainerScript(dir.path(), QStringLiteral("gated-trainer"),
                                                   "echo \"$*\" >> \"$0.calls\"\nwhile [ ! -e \"$0.go\" ]; do sleep 0.05; done\nexit 0\n");

        LiveFineTuner tuner;
        setUp(tuner, trainer, project, first);
        QSignalSpy learned(&tuner, &LiveFineTuner::learned);
        project.setStatus(3, LabelStatus::Labelled);
        project.setStatus(4, LabelStatus::InProgress);  // packed too: said in what was learned
        tuner.labelsChanged();
        QCOMPARE(tuner.state(), LiveFineTuner::State::Packing);
        // Issue 60.10: said in the status bar of every workspace while it works.
        QVERIFY2(tuner.activityText().startsWith(QStringLiteral("Predict as I label: packing 4 labelled images")),
                 qPrintable(tuner.activityText()));
        tuner.setBaseRun(second);  // what a click on another run in the Predictions panel does
        QFile gate(trainer + QStringLiteral(".go"));
        QVERIFY(gate.open(QIODevice::WriteOnly));
        gate.close();
        QVERIFY(learned.wait(60000) || !learned.isEmpty());
        QCOMPARE(learned.at(0).at(0).toString(), QDir(dir.path()).filePath(QStringLiteral("runs/first-live")));
        QVERIFY(QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/first-live"))));
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/.first-live.next"))));
        QFile calls(trainer + QStringLiteral(".calls"));
        QVERIFY(calls.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(calls.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[1].contains(checkpointOf(first)) && !lines[1].contains(QStringLiteral("runs/second")), qPrintable(lines[1]));
        const QJsonObject record = readJson(QDir(dir.path()).filePath(QStringLiteral("runs/.first-live.json")));
        QCOMPARE(record.value(QStringLiteral("baseRun")).toString(), first);
        QCOMPARE(record.value(QStringLiteral("learnedFrom")).toArray().size(), 4);  // a, b, d and e (in progress)
        // From now on the selected run is the base: nothing labelled since it was chosen.
        QCOMPARE(tuner.state(), LiveFineTuner::State::Counting);
        QCOMPARE(tuner.newlyLabelled(), 0);
        QCOMPARE(tuner.liveRunDirectory(), QDir(dir.path()).filePath(QStringLiteral("runs/second-live")));
    }

    // Issue 60.8: a fine-tune is validated on its base's validation images before it may replace
    // anything. A stand-in trainer writes the staging run a real one would: its config (naming the
    // validation pack it was given) and a validation record of the mean IoU it is told.
    void aFineTuneThatValidatesWorseIsNotKept_data()
    {
        QTest::addColumn<double>("fineTunedIoU");
        QTest::addColumn<bool>("kept");
        QTest::newRow("worse: dropped") << 0.40 << false;
        QTest::newRow("better: kept") << 0.60 << true;
    }
    void aFineTuneThatValidatesWorseIsNotKept()
    {
        QFETCH(double, fineTunedIoU);
        QFETCH(bool, kept);
        QTemporaryDir dir;
        auto project = tinyProject(dir.path());
        const QString base = writeRun(dir.path(), QStringLiteral("base"), project);
        segstudio::data::PackOptions options;
        options.height = 32;
        options.width = 48;
        segstudio::data::DatasetPacker::pack(project, Split::Val, (base + QStringLiteral("/val.pack")).toStdString(), options);
        writeValidation(base, QStringLiteral("{}"), 0.50);
        // pack: exit 0; train: the run folder after -o, its config naming --val-pack's value.
        const QByteArray body = "out=''; val=''; prev=''\n"
                                "for a in \"$@\"; do [ \"$prev\" = -o ] && out=\"$a\"; [ \"$prev\" = --val-pack ] && val=\"$a\"; prev=\"$a\"; done\n"
                                "[ \"$1\" = train ] || exit 0\n"
                                "mkdir -p \"$out/checkpoints\" && : > \"$out/checkpoints/last.pt\"\n"
                                "printf '{\"valPack\": \"%s\"}' \"$val\" > \"$out/config.json\"\n"
                                "printf '%s\\n%s\\n' \"$RUN_RECORD\" \"$VAL_RECORD\" > \"$out/metrics.jsonl\"\n";
        const QString trainer = writeTrainerScript(dir.path(), QStringLiteral("validating-trainer"), body);
        qputenv("RUN_RECORD", runRecord());
        qputenv("VAL_RECORD", valRecord(fineTunedIoU));
        LiveFineTuner tuner;
        setUp(tuner, trainer, project, base);
        QSignalSpy learned(&tuner, &LiveFineTuner::learned);
        project.setStatus(3, LabelStatus::Labelled);
        tuner.labelsChanged();
        QTRY_COMPARE_WITH_TIMEOUT(tuner.state(), LiveFineTuner::State::Counting, 60000);
        const QString live = QDir(dir.path()).filePath(QStringLiteral("runs/base-live"));
        QCOMPARE(QFileInfo::exists(live), kept);
        QCOMPARE(learned.size(), kept ? 1 : 0);
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/.base-live.next"))));
        if (kept) {
            QCOMPARE(learned.at(0).at(1).toBool(), true);
            QVERIFY2(learned.at(0).at(2).toString().contains(QStringLiteral("validated better (mIoU 0.600 against 0.500")),
                     qPrintable(learned.at(0).at(2).toString()));
        } else {
            QVERIFY2(tuner.statusText().contains(QStringLiteral("not kept: base-live validated no better (mIoU 0.400 against 0.500")),
                     qPrintable(tuner.statusText()));
        }
        QCOMPARE(tuner.newlyLabelled(), 0);  // learned from either way: it waits for new labels
    }

    // Issue 60.10: unticking removes the live run (hundreds of MB, the tuner's alone) and says
    // which run it learned from, so the model in use can go back to it; only the project's own.
    void turningItOffRemovesTheLiveRun()
    {
        QTemporaryDir dir;
        auto project = tinyProject(dir.path());
        const QString base = writeRun(dir.path(), QStringLiteral("base"), project);
        const QString live = writeRun(dir.path(), QStringLiteral("base-live"), project);
        LiveFineTuner tuner;
        setUp(tuner, writeTrainerScript(dir.path(), QStringLiteral("idle"), "exit 0\n"), project, base);
        QVERIFY(QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/.base-live.json"))));
        QSignalSpy removed(&tuner, &LiveFineTuner::liveRunRemoved);
        tuner.setEnabled(false);  // (a read-only window switches it off too: nothing goes then)
        QVERIFY(QFileInfo::exists(live));
        tuner.removeLiveRun(QDir(dir.path()).filePath(QStringLiteral("elsewhere")));  // not that folder's run
        QVERIFY(QFileInfo::exists(live));
        tuner.removeLiveRun(QDir(dir.path()).filePath(QStringLiteral("runs")));  // the user unticked it
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.at(0).at(0).toString(), live);
        QCOMPARE(removed.at(0).at(1).toString(), base);
        QVERIFY(!QFileInfo::exists(live));
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/.base-live.json"))));
        QVERIFY(QFileInfo::exists(checkpointOf(base)));
    }

    // Unticking stops the fine-tune and removes its staging folder (a pack and a model).
    void turningItOffRemovesTheFineTunesStaging()
    {
        QTemporaryDir dir;
        auto project = tinyProject(dir.path());
        const QString base = writeRun(dir.path(), QStringLiteral("base"), project);
        const QString trainer =
            writeTrainerScript(dir.path(), QStringLiteral("gated-trainer"), "while [ ! -e \"$0.go\" ]; do sleep 0.05; done\n");
        LiveFineTuner tuner;
        setUp(tuner, trainer, project, base);
        project.setStatus(3, LabelStatus::Labelled);
        tuner.labelsChanged();
        QCOMPARE(tuner.state(), LiveFineTuner::State::Packing);
        const QString staging = QDir(dir.path()).filePath(QStringLiteral("runs/.base-live.next"));
        QVERIFY(QFileInfo::exists(staging));
        tuner.setEnabled(false);
        QCOMPARE(tuner.state(), LiveFineTuner::State::Off);
        QVERIFY(!QFileInfo::exists(staging));
    }
};

QTEST_GUILESS_MAIN(TestLiveFineTuner)
#include "test_LiveFineTuner.moc"
