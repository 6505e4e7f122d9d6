#include "UiTestProject.h"

#include "project/DemoProject.h"
#include "training/DetailPlot.h"
#include "shell/MainWindow.h"
#include "browser/ImageListModel.h"
#include "training/MetricsPlot.h"
#include "predictions/EvaluationReportView.h"
#include "predictions/PredictionService.h"
#include "common/TrainerArguments.h"
#include "predictions/PredictionsDock.h"
#include "shell/Workspaces.h"
#include "common/ProcessLog.h"
#include "training/TrainDialog.h"
#include "training/TrainSettingsStore.h"
#include "training/RunInfoPanel.h"
#include "training/RunWatcher.h"
#include "training/RunsTable.h"
#include "training/TrainingDock.h"
#include "training/TrainingLauncher.h"
#include "training/TrainingMonitor.h"
#include "document/ProjectDocument.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileSystemWatcher>
#include <QJsonDocument>
#include <QJsonObject>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <csignal>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "data/project/DatasetPacker.h"
#include "data/project/SyntheticDatasetGenerator.h"
#include "run/MetricsReader.h"
#include "run/RunLayout.h"

#include <cmath>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::run::MetricsRecord;
using segstudio::run::RunState;
using segstudio::ui::browser::ImageListModel;
using segstudio::ui::shell::MainWindow;
using segstudio::ui::training::MetricsPlot;
using segstudio::ui::training::TrainingDock;
using segstudio::ui::training::TrainingLauncher;

namespace {

void writeText(const QString& file, const QByteArray& text, QIODevice::OpenMode mode = QIODevice::WriteOnly)
{
    QDir().mkpath(QFileInfo(file).path());
    QFile out(file);
    QVERIFY(out.open(mode));
    out.write(text);
}

QByteArray trainLine(int iteration, double loss, double accuracy)
{
    return QStringLiteral(R"({"kind":"train","epoch":1,"iteration":%1,"loss":%2,"accuracy":%3,"lr":0.001,"images_per_s":5,"elapsed_s":1})"
                          "\n")
        .arg(iteration)
        .arg(loss)
        .arg(accuracy)
        .toUtf8();
}

QByteArray valLine(int iteration, const char* meanIoU, double loss = 1.1, double seconds = 2)
{
    return QStringLiteral(R"({"kind":"val","epoch":1,"iteration":%1,"loss":%3,"accuracy":0.6,"mean_accuracy":0.4,"mean_iou":%2,"weighted_iou":0.5,"class_iou":[0.2,null],"elapsed_s":%4})"
                          "\n")
        .arg(iteration)
        .arg(QString::fromUtf8(meanIoU))
        .arg(loss)
        .arg(seconds)
        .toUtf8();
}

// A run written by hand, as segstudio-train would leave it.
void writeRun(const QString& dir, const QByteArray& metrics)
{
    writeText(QDir(dir).filePath(QStringLiteral("config.json")), R"({"model":"segnet-tiny","epochs":2})");
    writeText(QDir(dir).filePath(QStringLiteral("metrics.jsonl")), metrics);
    writeText(QDir(dir).filePath(QStringLiteral("log.txt")), "epoch 1 iteration 10 loss 1.5\n");
}

// The panel's parts, found by the names it gives them (it hands none out).
template <typename T>
T* partOf(const QObject& panel, const char* name)
{
    T* part = panel.findChild<T*>(QString::fromLatin1(name));
    if (!part)
        qFatal("the panel has no %s", name);
    return part;
}

MetricsPlot* plotOf(const TrainingDock& dock) { return partOf<MetricsPlot>(dock, "metricsPlot"); }
segstudio::ui::training::TrainingMonitor* monitorOf(const TrainingDock& dock)
{
    return partOf<segstudio::ui::training::TrainingMonitor>(dock, "trainingMonitor");
}
segstudio::ui::training::RunInfoPanel* infoOf(const TrainingDock& dock)
{
    return partOf<segstudio::ui::training::RunInfoPanel>(dock, "runInfo");
}
segstudio::ui::training::RunWatcher* watcherOf(const TrainingDock& dock)
{
    return partOf<segstudio::ui::training::RunWatcher>(dock, "runWatcher");
}
segstudio::ui::training::RunsTable* runsTableOf(const TrainingDock& dock)
{
    return partOf<segstudio::ui::training::RunsTable>(dock, "runsTable");
}
QPlainTextEdit* logOf(const TrainingDock& dock) { return partOf<QPlainTextEdit>(dock, "trainingLog"); }
QString statusOf(const TrainingDock& dock) { return partOf<QLabel>(dock, "trainingStatus")->text(); }

int count(const TrainingDock& dock, MetricsPlot::Series series) { return plotOf(dock)->series(series)->dataCount(); }

// The panel reads on a worker: wait for what it has asked for.
void pollNow(TrainingDock& dock)
{
    watcherOf(dock)->poll();
    watcherOf(dock)->waitForIdle();
}

bool showRun(TrainingDock& dock, const QString& name)
{
    const bool found = dock.selectRun(name);
    watcherOf(dock)->waitForIdle();
    return found;
}

QByteArray runLine(int epochs, int perEpoch)
{
    return QStringLiteral(R"({"kind":"run","epoch":1,"iteration":0,"model":"segnet-tiny","device":"cpu","world_size":1,"batch":4,"epochs":%1,"iterations_per_epoch":%2,"total_iterations":%3,"started":"2026-11-23T10:00:00Z"})"
                          "\n")
        .arg(epochs)
        .arg(perEpoch)
        .arg(epochs * perEpoch)
        .toUtf8();
}

// The run record of a run given a time budget (train --time-budget): 10 planned epochs of 10.
QByteArray budgetedRunLine(int budgetSeconds)
{
    return QStringLiteral(R"({"kind":"run","epoch":1,"iteration":0,"model":"segnet-tiny","device":"cpu","world_size":1,"batch":4,"epochs":10,"iterations_per_epoch":10,"total_iterations":100,"time_budget_s":%1,"started":"2026-11-26T10:00:00Z"})"
                          "\n")
        .arg(budgetSeconds)
        .toUtf8();
}

QByteArray stateLine(const char* state, int iteration, const char* reason = "")
{
    return QStringLiteral(R"({"kind":"state","epoch":1,"iteration":%1,"state":"%2","reason":"%3"})"
                          "\n")
        .arg(iteration)
        .arg(QString::fromUtf8(state), QString::fromUtf8(reason))
        .toUtf8();
}

QByteArray timedTrainLine(int iteration, double seconds)
{
    return QStringLiteral(R"({"kind":"train","epoch":%1,"iteration":%2,"loss":1.0,"accuracy":0.5,"lr":0.004,"elapsed_s":%3})"
                          "\n")
        .arg(iteration / 10 + 1)
        .arg(iteration)
        .arg(seconds)
        .toUtf8();
}

std::vector<MetricsRecord> recordsOf(const QString& runDir)
{
    return segstudio::run::MetricsReader::readAll(segstudio::run::RunLayout(runDir.toStdString()).metricsFile());
}

// A stand-in for segstudio-train: prints its arguments; "train" writes one metrics line, or with
// FAKE_TRAIN_WAIT waits for SIGTERM and exits 130 as the real one does.
QString writeFakeTrainer(const QString& dir)
{
    const QString file = QDir(dir).filePath(QStringLiteral("fake-train"));
    writeText(file, R"(#!/bin/sh
if [ "$1" = models ]; then
  echo '[{"name": "fancy-net", "description": "from the engine"}, {"name": "segnet-tiny", "description": "tiny", "default": true}]'
  exit 0
fi
echo "fake $*"
if [ "$1" = pack ] && [ -n "$FAKE_VAL_PACK" ]; then  # the val split: the prepared pack
  out=""; split=""
  while [ $# -gt 0 ]; do [ "$1" = --out ] && out="$2"; [ "$1" = --split ] && split="$2"; shift; done
  [ "$split" = val ] && cp "$FAKE_VAL_PACK" "$out"
  exit 0
fi
if [ "$1" = train ] && [ -n "$FAKE_TRAIN_VAL_IOU" ]; then  # a run that validated, with its model
  out=""
  while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
  mkdir -p "$out/checkpoints" && : > "$out/checkpoints/best.pt"
  echo '{"kind":"run","epoch":0,"iteration":0,"segstudio_version":"fake","model":"segnet-tiny","epochs":1}' >> "$out/metrics.jsonl"
  echo "{\"kind\":\"val\",\"epoch\":1,\"iteration\":1,\"loss\":1.0,\"accuracy\":0.5,\"mean_iou\":$FAKE_TRAIN_VAL_IOU}" >> "$out/metrics.jsonl"
  echo '{"kind":"state","epoch":1,"iteration":1,"state":"finished"}' >> "$out/metrics.jsonl"
  exit 0
fi
if [ "$1" = train ]; then
  out=""
  while [ $# -gt 0 ]; do { [ "$1" = -o ] || [ "$1" = --resume ]; } && out="$2"; shift; done
  mkdir -p "$out"
  echo '{"kind":"train","epoch":1,"iteration":1,"loss":2.0,"accuracy":0.1}' >> "$out/metrics.jsonl"
  if [ -n "$FAKE_TRAIN_FAIL" ]; then
    echo "segstudio-train: $out/checkpoints/last.pt: cannot write (No space left on device); the previous file is kept" >&2
    exit 1
  fi
  if [ -n "$FAKE_TRAIN_WAIT" ]; then
    trap 'echo stopping; exit 130' TERM
    echo waiting
    while true; do sleep 0.1; done
  fi
  if [ -n "$FAKE_TRAIN_SLOW_STOP" ]; then
    # As the real trainer: holds the run's lock, and a stop takes a while (its checkpoint);
    # every TERM it gets is counted, and it ends once the test drops a release file.
    echo "pid $$ on $(cat /proc/sys/kernel/hostname) since now" > "$out/trainer.lock"
    trap 'echo term >> "$out/terms"; echo stopping' TERM
    echo waiting
    while [ ! -e "$out/release" ]; do sleep 0.1; done
    [ -e "$out/terms" ] && exit 130
    exit 0
  fi
fi
exit 0
)");
    QFile::setPermissions(file, QFile::permissions(file) | QFileDevice::ExeOwner);
    return file;
}

int linesOf(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
}

// Answers the next modal message box with the button of that text; then, if given, drops a file
// (the fake trainer's release), so what comes after the answer can finish.
void answer(const QString& buttonText, const QString& thenWrite = {})
{
    QTimer::singleShot(0, [buttonText, thenWrite] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
            for (QAbstractButton* button : box->buttons())
                if (button->text().remove(QLatin1Char('&')) == buttonText)
                    button->click();
        if (!thenWrite.isEmpty())
            writeText(thenWrite, QByteArray());
    });
}

// Answers the next number dialog (QInputDialog::getInt) with value, after noting its question and
// the value it proposed.
void answerNumber(int value, QString* question, int* proposed)
{
    QTimer::singleShot(0, [=] {
        if (auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
            *question = dialog->labelText();
            *proposed = dialog->intValue();
            dialog->setIntValue(value);
            dialog->accept();
        }
    });
}

}  // namespace

class TestTrainingDock : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SegStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_TrainingDock"));
    }

    void listsRunsAndPlotsAnExistingRun()
    {
        QTemporaryDir dir;
        const QString runs = QDir(dir.path()).filePath(QStringLiteral("runs"));
        writeRun(QDir(runs).filePath(QStringLiteral("first")), trainLine(10, 1.5, 0.3) + trainLine(20, 1.2, 0.4) + valLine(20, "0.25"));
        QDir().mkpath(QDir(runs).filePath(QStringLiteral("empty")));
        TrainingDock dock;
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QCOMPARE(dock.runsFolder(), runs);
        QVERIFY(dock.runNames().contains(QStringLiteral("first")));
        QVERIFY(dock.runNames().contains(QStringLiteral("empty")));

        QVERIFY(showRun(dock, QStringLiteral("first")));
        QCOMPARE(dock.currentRunDirectory(), QDir(runs).filePath(QStringLiteral("first")));
        QCOMPARE(count(dock, MetricsPlot::TrainLoss), 2);
        QCOMPARE(count(dock, MetricsPlot::TrainAccuracy), 2);
        QCOMPARE(count(dock, MetricsPlot::ValLoss), 1);
        QCOMPARE(count(dock, MetricsPlot::ValAccuracy), 1);
        QCOMPARE(count(dock, MetricsPlot::ValMeanIoU), 1);
        const auto firstLoss = plotOf(dock)->series(MetricsPlot::TrainLoss)->data()->at(0);
        QCOMPARE(firstLoss->key, 10.0);
        QCOMPARE(firstLoss->value, 1.5);
        QCOMPARE(plotOf(dock)->series(MetricsPlot::ValMeanIoU)->data()->at(0)->value, 0.25);
        QVERIFY(logOf(dock)->toPlainText().contains(QStringLiteral("loss 1.5")));

        QVERIFY(showRun(dock, QStringLiteral("empty")));  // another run: its (no) curves only
        for (int series = 0; series < MetricsPlot::SeriesCount; ++series)
            QCOMPARE(plotOf(dock)->series(MetricsPlot::Series(series))->dataCount(), 0);
        QVERIFY(!dock.selectRun(QStringLiteral("missing")));
    }

    void appendedLinesArriveAfterThePoll()
    {
        QTemporaryDir dir;
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/live"));
        const QString metrics = QDir(run).filePath(QStringLiteral("metrics.jsonl"));
        writeRun(run, trainLine(10, 1.5, 0.3));
        TrainingDock dock;
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QVERIFY(showRun(dock, QStringLiteral("live")));
        QCOMPARE(count(dock, MetricsPlot::TrainLoss), 1);
        // One point makes no line: it is drawn as a dot (issue 50).
        QVERIFY(plotOf(dock)->series(MetricsPlot::TrainLossSmoothed)->scatterStyle().shape() != QCPScatterStyle::ssNone);

        // A complete line and half of the next: only the complete one arrives.
        const QByteArray next = valLine(20, "0.3");
        writeText(metrics, trainLine(20, 1.0, 0.5) + next.left(30), QIODevice::Append);
        pollNow(dock);
        QCOMPARE(count(dock, MetricsPlot::TrainLoss), 2);
        QCOMPARE(count(dock, MetricsPlot::ValLoss), 0);

        writeText(metrics, next.mid(30) + valLine(30, "null"), QIODevice::Append);
        pollNow(dock);
        QCOMPARE(count(dock, MetricsPlot::ValLoss), 2);
        QCOMPARE(count(dock, MetricsPlot::ValMeanIoU), 1);  // null (NaN) leaves a gap
        QCOMPARE(plotOf(dock)->series(MetricsPlot::TrainLoss)->data()->at(1)->value, 1.0);
    }

    // A corrupt line (a crash, a hand edit) is skipped with a warning naming file and line; the
    // lines after it still arrive.
    void malformedLineIsSkippedWithAWarning()
    {
        QTemporaryDir dir;
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/bad"));
        writeRun(run, trainLine(10, 1.5, 0.3) + "{oops\n" + trainLine(20, 1.2, 0.4));
        TrainingDock dock;
        QSignalSpy warnings(watcherOf(dock), &segstudio::ui::training::RunWatcher::warning);
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QVERIFY(showRun(dock, QStringLiteral("bad")));
        QCOMPARE(count(dock, MetricsPlot::TrainLoss), 2);
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.at(0).at(0).toString().contains(QStringLiteral("metrics.jsonl: line 2")));
        QVERIFY(statusOf(dock).contains(QStringLiteral("line 2")));
        pollNow(dock);
        QCOMPARE(warnings.size(), 1);  // said once
    }

    // Issue 11: state, epoch, iteration, ETA and the best validation from the run's records.
    void infoPanelShowsProgressAndEta()
    {
        QTemporaryDir dir;
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/live"));
        writeRun(run, runLine(10, 10) + stateLine("training", 0) + timedTrainLine(10, 20) + timedTrainLine(20, 40) +
                          valLine(20, "0.25", 1.1, 41));
        TrainingDock dock;
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QVERIFY(showRun(dock, QStringLiteral("live")));
        QCOMPARE(infoOf(dock)->stateText(), QStringLiteral("Training"));
        // 80 iterations to go at this session's pace: 10 iterations and their validation in 21 s.
        QCOMPARE(infoOf(dock)->etaText(), QStringLiteral("2 min 48 s"));
        QCOMPARE(infoOf(dock)->bestText(), QStringLiteral("0.250 (epoch 1)"));
        QCOMPARE(infoOf(dock)->progressPercent(), 20);
        // The epoch boundaries are marked every 10 iterations (the top axis's grid).
        QVERIFY(plotOf(dock)->accuracyRect()->axis(QCPAxis::atTop)->grid()->visible());

        writeText(QDir(run).filePath(QStringLiteral("metrics.jsonl")), stateLine("failed", 20, "out of memory"),
                  QIODevice::Append);
        pollNow(dock);
        QCOMPARE(infoOf(dock)->stateText(), QStringLiteral("Failed"));
        QCOMPARE(infoOf(dock)->etaText(), QStringLiteral("–"));
    }

    void smoothingAxesAndHover()
    {
        QTemporaryDir dir;
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/live"));
        QByteArray metrics = runLine(4, 10);
        for (int i = 1; i <= 40; ++i)
            metrics += trainLine(i, i % 2 ? 2.0 : 1.0, 0.5);
        writeRun(run, metrics);
        TrainingDock dock;
        dock.resize(1200, 700);
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QVERIFY(showRun(dock, QStringLiteral("live")));
        MetricsPlot* plot = plotOf(dock);
        QCOMPARE(count(dock, MetricsPlot::TrainLossSmoothed), 40);
        // Smoothing 0 shows the raw values; heavy smoothing flattens the zig-zag towards 1.5.
        monitorOf(dock)->smoothingSlider()->setValue(0);
        QCOMPARE(plot->series(MetricsPlot::TrainLossSmoothed)->data()->at(39)->value, 1.0);
        monitorOf(dock)->smoothingSlider()->setValue(95);
        QVERIFY(std::abs(plot->series(MetricsPlot::TrainLossSmoothed)->data()->at(39)->value - 1.5) < 0.2);
        // x as epochs: iteration 20 of 10 per epoch is epoch 2.
        monitorOf(dock)->xAxisChoice()->setCurrentIndex(1);
        QCOMPARE(plot->series(MetricsPlot::TrainLoss)->data()->at(19)->key, 2.0);
        plot->setLogScale(true);
        QCOMPARE(plot->lossRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLogarithmic);
        // Hovering over a point reads it.
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        plot->replot();
        QCPGraph* raw = plot->series(MetricsPlot::TrainLossSmoothed);
        const QPointF at = raw->coordsToPixels(raw->data()->at(10)->key, raw->data()->at(10)->value);
        const QString text = plot->describePointAt(at);
        QVERIFY2(text.contains(QStringLiteral("train loss")) && text.contains(QStringLiteral("epoch 1.10")), qPrintable(text));
        QVERIFY(plot->describePointAt(QPointF(-100, -100)).isEmpty());
    }

    // A run folder outside the project (a cluster's shared folder): watched all the same, and it
    // stays in view while the project's own runs come and go.
    void opensARunFolderFromElsewhere()
    {
        QTemporaryDir project, elsewhere;
        const QString run = QDir(elsewhere.path()).filePath(QStringLiteral("cluster-run"));
        writeRun(run, runLine(2, 10) + trainLine(10, 1.5, 0.3));
        QVERIFY(QDir().mkpath(run + QStringLiteral("/checkpoints")));
        writeText(run + QStringLiteral("/checkpoints/last.pt"), "model");
        TrainingDock dock;
        dock.setProjectFile(QDir(project.path()).filePath(QStringLiteral("p.segstudio")));
        QVERIFY(!dock.openRunFolder(elsewhere.path()));  // no metrics.jsonl: refused, said why
        QVERIFY(statusOf(dock).contains(QStringLiteral("not a run folder")));
        QVERIFY(dock.openRunFolder(run));
        watcherOf(dock)->waitForIdle();
        QCOMPARE(dock.currentRunDirectory(), run);
        QCOMPARE(count(dock, MetricsPlot::TrainLoss), 1);
        // Issue 60.11: it was missing from the runs table. Listed and selected there, its model in use.
        QCOMPARE(runsTableOf(dock)->currentRun(), QStringLiteral("cluster-run"));
        QCOMPARE(runsTableOf(dock)->runDirectory(QStringLiteral("cluster-run")), run);
        QCOMPARE(dock.modelRunDirectory(), run);
        QVERIFY(QDir().mkpath(QDir(project.path()).filePath(QStringLiteral("runs/local"))));
        dock.refreshRuns();
        QCOMPARE(dock.currentRunDirectory(), run);
        QVERIFY(dock.runNames().contains(QStringLiteral("cluster-run")) && dock.runNames().contains(QStringLiteral("local")));
        writeText(QDir(run).filePath(QStringLiteral("metrics.jsonl")), trainLine(20, 1.2, 0.4), QIODevice::Append);
        pollNow(dock);
        QCOMPARE(count(dock, MetricsPlot::TrainLoss), 2);
        // One named like a run of the project is listed under its folder's name too, and chosen as itself.
        const QString twin = QDir(elsewhere.path()).filePath(QStringLiteral("local"));
        writeRun(twin, runLine(2, 10) + trainLine(10, 1.5, 0.3));
        QVERIFY(QDir().mkpath(twin + QStringLiteral("/checkpoints")));
        writeText(twin + QStringLiteral("/checkpoints/last.pt"), "model");
        QVERIFY(dock.openRunFolder(twin));
        QCOMPARE(dock.currentRunDirectory(), twin);
        QCOMPARE(dock.modelRunDirectory(), twin);
        QCOMPARE(runsTableOf(dock)->currentRun(), QStringLiteral("local (%1)").arg(QDir(elsewhere.path()).dirName()));
    }

    // Ticked runs are overlaid: their smoothed loss and val mIoU, named in the legend.
    void comparesTickedRuns()
    {
        QTemporaryDir dir;
        const QString runs = QDir(dir.path()).filePath(QStringLiteral("runs"));
        writeRun(QDir(runs).filePath(QStringLiteral("a")), runLine(2, 10) + trainLine(10, 1.5, 0.3) + valLine(20, "0.25"));
        writeRun(QDir(runs).filePath(QStringLiteral("b")), runLine(2, 10) + trainLine(10, 1.0, 0.5) + trainLine(20, 0.8, 0.6) +
                                                            valLine(20, "0.4"));
        TrainingDock dock;
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        runsTableOf(dock)->waitForSummaries();
        QVERIFY(showRun(dock, QStringLiteral("a")));
        // The table summarises each run from its records.
        const auto rows = runsTableOf(dock)->findItems(QStringLiteral("b"), Qt::MatchExactly);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0]->text(segstudio::ui::training::RunsTable::Best), QStringLiteral("0.400 (1)"));
        QCOMPARE(rows[0]->text(segstudio::ui::training::RunsTable::Model), QStringLiteral("segnet-tiny"));
        QCOMPARE(rows[0]->text(segstudio::ui::training::RunsTable::Epochs), QStringLiteral("2/2"));
        runsTableOf(dock)->setCompared(QStringLiteral("b"), true);
        QTRY_COMPARE(plotOf(dock)->comparedGraphCount(), 2);
        bool named = false;
        for (int i = 0; i < plotOf(dock)->graphCount(); ++i)
            named = named || plotOf(dock)->graph(i)->name() == QStringLiteral("b: val mIoU");
        QVERIFY(named);
        runsTableOf(dock)->setCompared(QStringLiteral("b"), false);
        QTRY_COMPARE(plotOf(dock)->comparedGraphCount(), 0);
        // Issue 27, item 14: another project's panel draws none of this project's ticked runs.
        runsTableOf(dock)->setCompared(QStringLiteral("b"), true);
        QTRY_COMPARE(plotOf(dock)->comparedGraphCount(), 2);
        QTemporaryDir other;
        dock.setProjectFile(QDir(other.path()).filePath(QStringLiteral("q.segstudio")));
        QVERIFY(runsTableOf(dock)->comparedRuns().isEmpty());
        QTRY_COMPARE(plotOf(dock)->comparedGraphCount(), 0);
    }

    void exportsPlotsAndCsv()
    {
        QTemporaryDir dir;
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/done"));
        writeRun(run, runLine(2, 10) + trainLine(10, 1.5, 0.3) + valLine(20, "0.25"));
        TrainingDock dock;
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QVERIFY(showRun(dock, QStringLiteral("done")));
        const QString csv = QDir(dir.path()).filePath(QStringLiteral("m.csv"));
        QVERIFY2(monitorOf(dock)->exportCsv(csv), qPrintable(monitorOf(dock)->message()));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);  // header, train, val
        QVERIFY(lines[0].startsWith("kind,epoch,iteration"));
        QVERIFY(lines[2].startsWith("val,1,20,"));
        const QString png = QDir(dir.path()).filePath(QStringLiteral("p.png"));
        QVERIFY(monitorOf(dock)->exportImage(png));
        QImage image(png);
        QVERIFY(!image.isNull() && image.width() >= 800);
        const QString pdf = QDir(dir.path()).filePath(QStringLiteral("p.pdf"));
        QVERIFY(monitorOf(dock)->exportImage(pdf));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(4) == "%PDF");
    }

    // Issue 27, item 16: a run whose training pack is elsewhere (started from a terminal) names
    // its per-class IoU after the project's classes when it has as many, in the details plot and
    // the CSV; numbers only for a run of another class count.
    void perClassIoUIsNamedAfterTheProjectsClasses()
    {
        QTemporaryDir dir;
        const segstudio::data::ClassSchema twoClasses({{0, "road", {128, 64, 128}, "1"}, {1, "car", {64, 0, 128}, "2"}});
        auto project = segstudio::test::writeProject(dir.path(), {{"a.png", segstudio::data::Split::Train,
                                                                   segstudio::data::LabelStatus::Labelled, {0, 1}, 0}},
                                                     twoClasses);
        const segstudio::document::ProjectDocument document(project);
        const QString runs = QDir(dir.path()).filePath(QStringLiteral("runs"));
        writeRun(QDir(runs).filePath(QStringLiteral("terminal")), trainLine(10, 1.5, 0.3) + valLine(20, "0.25"));
        writeRun(QDir(runs).filePath(QStringLiteral("other")),
                 trainLine(10, 1.5, 0.3) +
                     QByteArray(R"({"kind":"val","epoch":1,"iteration":20,"loss":1,"accuracy":0.6,"mean_iou":0.2,"class_iou":[0.1,0.2,0.3]})"
                                "\n"));
        TrainingDock dock;
        dock.setDocument(&document);
        QVERIFY(showRun(dock, QStringLiteral("terminal")));
        QStringList names;
        for (const auto* graph : monitorOf(dock)->details()->classIoU())
            names << graph->name();
        QCOMPARE(names, segstudio::test::strings({"road", "car"}));
        const QString csv = QDir(dir.path()).filePath(QStringLiteral("m.csv"));
        QVERIFY2(monitorOf(dock)->exportCsv(csv), qPrintable(monitorOf(dock)->message()));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QVERIFY2(csvFile.readLine().trimmed().endsWith("iou_road,iou_car"), "header");
        QVERIFY(showRun(dock, QStringLiteral("other")));
        names.clear();
        for (const auto* graph : monitorOf(dock)->details()->classIoU())
            names << graph->name();
        QCOMPARE(names, segstudio::test::strings({"class 0", "class 1", "class 2"}));
    }

    void runListFollowsTheRunsFolder()
    {
        QTemporaryDir dir;
        TrainingDock dock;
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QVERIFY(dock.runNames().isEmpty());
        // runs/ does not exist yet: the project folder is watched for it.
        QCOMPARE(partOf<QFileSystemWatcher>(dock, "runsWatcher")->directories(), QStringList{dir.path()});
        QSignalSpy changed(partOf<QFileSystemWatcher>(dock, "runsWatcher"), &QFileSystemWatcher::directoryChanged);
        QVERIFY(QDir().mkpath(QDir(dir.path()).filePath(QStringLiteral("runs/a"))));
        QVERIFY(changed.wait(60000));
        QCOMPARE(dock.runNames(), segstudio::test::strings({"a"}));
        QCOMPARE(partOf<QFileSystemWatcher>(dock, "runsWatcher")->directories(), QStringList{dock.runsFolder()});
        QVERIFY(dock.selectRun(QStringLiteral("a")));

        changed.clear();
        QVERIFY(QDir(dock.runsFolder()).rmdir(QStringLiteral("a")));  // the selected run goes
        QVERIFY(changed.wait(60000));
        QVERIFY(dock.runNames().isEmpty());
        QVERIFY(dock.currentRunDirectory().isEmpty());
    }

    // Issue 9.15: validation before the first and after the last training line is on the axis.
    void plotRangeCoversEverySeries()
    {
        MetricsPlot plot;
        std::vector<MetricsRecord> records;
        for (int iteration = 10; iteration <= 90; iteration += 10) {
            auto train = MetricsRecord::train(1, iteration);
            train.loss = 1.0;
            train.accuracy = 0.5;
            records.push_back(train);
        }
        auto first = MetricsRecord::val(1, 0);
        first.loss = 2.0;
        first.meanIoU = 0.05;
        auto last = MetricsRecord::val(2, 100);
        last.loss = 0.5;
        last.meanIoU = 0.6;
        records.push_back(first);
        records.push_back(last);
        plot.addRecords(records);
        QCOMPARE(plot.lossRect()->axis(QCPAxis::atBottom)->range().lower, 0.0);
        QCOMPARE(plot.lossRect()->axis(QCPAxis::atBottom)->range().upper, 100.0);
        QCOMPARE(plot.accuracyRect()->axis(QCPAxis::atBottom)->range().upper, 100.0);  // one x axis
        QVERIFY(plot.lossRect()->axis(QCPAxis::atLeft)->range().upper >= 2.0);
        plot.clearPoints();
        QCOMPARE(plot.lossRect()->axis(QCPAxis::atBottom)->range().upper, 1.0);
    }

    // A user who zoomed in keeps the view while points arrive; Reset view follows them again.
    void zoomedViewIsKept()
    {
        MetricsPlot plot;
        auto train = MetricsRecord::train(1, 10);
        train.loss = 1.0;
        plot.addRecords({train});
        QTest::mousePress(&plot, Qt::LeftButton, {}, QPoint(50, 50));
        QTest::mouseRelease(&plot, Qt::LeftButton, {}, QPoint(50, 50));
        QVERIFY(!plot.followsData());
        plot.lossRect()->axis(QCPAxis::atBottom)->setRange(0, 5);
        train.iteration = 1000;
        plot.addRecords({train});
        QCOMPARE(plot.lossRect()->axis(QCPAxis::atBottom)->range().upper, 5.0);
        plot.resetView();
        QCOMPARE(plot.lossRect()->axis(QCPAxis::atBottom)->range().upper, 1000.0);
    }

    // Issue 50: a run's first training record (its first ~40 s) left the plots empty: QCustomPlot
    // joins points with lines, and one point makes none. It is a dot, inside the plot (not on the
    // axis line, which is drawn over the data), until the second point makes a line.
    void aLoneTrainingPointIsDrawn()
    {
        MetricsPlot plot;
        plot.resize(600, 400);
        auto train = MetricsRecord::train(1, 10);
        train.loss = 1.5;
        train.accuracy = 0.4;
        plot.addRecords({train});
        plot.replot();
        const QImage image = plot.toPixmap(600, 400).toImage();
        for (const auto series : {MetricsPlot::TrainLossSmoothed, MetricsPlot::TrainAccuracySmoothed}) {
            QCPGraph* graph = plot.series(series);
            QCOMPARE(graph->dataCount(), 1);
            QVERIFY(graph->scatterStyle().shape() != QCPScatterStyle::ssNone);
            QVERIFY(graph->scatterStyle().size() >= 5);
            const QCPRange x = graph->keyAxis()->range();
            QVERIFY2(x.lower < 10.0 && x.upper > 10.0, qPrintable(QStringLiteral("%1..%2").arg(x.lower).arg(x.upper)));
            // The pixel at the point has the curve's colour: it is drawn.
            const QPointF at = graph->coordsToPixels(10.0, graph->data()->at(0)->value);
            const QColor drawn = image.pixelColor(at.toPoint());
            const QColor colour = graph->pen().color();
            QVERIFY2(std::abs(drawn.red() - colour.red()) < 40 && std::abs(drawn.green() - colour.green()) < 40 &&
                         std::abs(drawn.blue() - colour.blue()) < 40,
                     qPrintable(drawn.name() + QStringLiteral(" instead of ") + colour.name()));
        }
        train.iteration = 20;
        train.loss = 1.2;
        plot.addRecords({train});
        QCOMPARE(plot.series(MetricsPlot::TrainLossSmoothed)->scatterStyle().shape(), QCPScatterStyle::ssNone);  // a line now
        plot.clearPoints();
        QCOMPARE(plot.series(MetricsPlot::TrainLossSmoothed)->scatterStyle().shape(), QCPScatterStyle::ssNone);
        plot.addRecords({train});
        QVERIFY(plot.series(MetricsPlot::TrainLossSmoothed)->scatterStyle().shape() != QCPScatterStyle::ssNone);
    }

    // Issue 11: the dialog's models are the engine's (segstudio-train models --json).
    void modelsComeFromTheEngine()
    {
        QTemporaryDir dir;
        TrainingLauncher launcher;
        launcher.setTrainer(writeFakeTrainer(dir.path()));
        QSignalSpy changed(&launcher, &TrainingLauncher::modelsChanged);
        launcher.refreshModels();
        QVERIFY(changed.wait(30000));
        QCOMPARE(launcher.models().size(), 2);
        QCOMPARE(launcher.models().first().name, QStringLiteral("fancy-net"));
        segstudio::ui::training::TrainDialog dialog(QStringLiteral("r"), {}, {}, launcher.models());
        auto* model = dialog.findChild<QComboBox*>(QStringLiteral("model"));
        QVERIFY(model);
        QCOMPARE(model->itemData(0).toString(), QStringLiteral("fancy-net"));
        QVERIFY(model->itemText(0).contains(QStringLiteral("from the engine")));
        // No model asked for: the dialog proposes the one the engine marks as its default.
        QCOMPARE(model->currentData().toString(), QStringLiteral("segnet-tiny"));
        QCOMPARE(dialog.settings().model, QStringLiteral("segnet-tiny"));
    }

    // Train again takes a run's settings from its config.json, through core/run's one reader
    // (issue 26): what the file has, the fallback for what it lacks.
    void trainAgainReadsTheRunsConfig()
    {
        QTemporaryDir dir;
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/old"));
        writeText(QDir(run).filePath(QStringLiteral("config.json")),
                  R"({"model":"segnet","epochs":30,"batchSize":2,"optimizer":"sgd","learningRate":0.001,)"
                  R"("schedule":"none","classWeighting":"median","flip":false,"translate":4,"colorJitter":0.4})");
        TrainingLauncher::Settings fallback;
        fallback.valEpochs = 5;
        const auto settings = TrainingLauncher::settingsOfRun(run, fallback);
        QCOMPARE(settings.model, QStringLiteral("segnet"));
        QCOMPARE(settings.epochs, 30);
        QCOMPARE(settings.batch, 2);
        QCOMPARE(settings.optimizer, QStringLiteral("sgd"));
        QCOMPARE(settings.learningRate, 0.001);
        QCOMPARE(settings.schedule, QStringLiteral("none"));
        QCOMPARE(settings.classWeighting, QStringLiteral("median"));
        QCOMPARE(settings.flip, false);
        QCOMPARE(settings.translate, 4);
        QCOMPARE(settings.colorJitter, 0.4);
        QCOMPARE(settings.valEpochs, 5);  // not in the file: the fallback's
        QCOMPARE(settings.height, fallback.height);  // no train.pack here
    }

    // Issue 27, item 13: the preset shown names what the fields hold: another run's settings
    // (Train again) are Custom, not "Defaults that learn"; editing a preset's field makes it Custom,
    // and putting the value back finds the preset again.
    void thePresetNamesWhatTheFieldsHold()
    {
        TrainingLauncher::Settings another;
        another.epochs = 30;
        another.batch = 2;
        another.optimizer = QStringLiteral("sgd");
        segstudio::ui::training::TrainDialog dialog(QStringLiteral("again"), another);
        auto* preset = dialog.findChild<QComboBox*>(QStringLiteral("preset"));
        QVERIFY(preset);
        QCOMPARE(preset->currentData().toInt(), int(segstudio::ui::training::TrainDialog::Custom));
        QCOMPARE(dialog.settings().epochs, 30);
        dialog.applyPreset(segstudio::ui::training::TrainDialog::EngineDefaults);
        QCOMPARE(preset->currentData().toInt(), int(segstudio::ui::training::TrainDialog::EngineDefaults));
        QCOMPARE(dialog.settings().minutes, 30);
        auto* minutes = dialog.findChild<QSpinBox*>(QStringLiteral("minutes"));
        QVERIFY(minutes && minutes->value() == 30);
        minutes->setValue(50);
        QCOMPARE(preset->currentData().toInt(), int(segstudio::ui::training::TrainDialog::Custom));
        QVERIFY(!dialog.settings().recipe);
        minutes->setValue(30);
        QCOMPARE(preset->currentData().toInt(), int(segstudio::ui::training::TrainDialog::EngineDefaults));
        // Colour jitter (issue 61: for images unlike the training data) is a field like the others.
        auto* jitter = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("colorJitter"));
        QVERIFY(jitter && jitter->value() == 0.0);
        jitter->setValue(0.4);
        QCOMPARE(preset->currentData().toInt(), int(segstudio::ui::training::TrainDialog::Custom));
        QCOMPARE(dialog.settings().colorJitter, 0.4);
        jitter->setValue(0.0);
        QCOMPARE(preset->currentData().toInt(), int(segstudio::ui::training::TrainDialog::EngineDefaults));
        // Epochs instead of minutes: another length, so Custom.
        dialog.findChild<QRadioButton*>(QStringLiteral("byEpochs"))->setChecked(true);
        QCOMPARE(preset->currentData().toInt(), int(segstudio::ui::training::TrainDialog::Custom));
        QCOMPARE(dialog.settings().minutes, 0);
        // A recipe run trained again for longer: Custom, still on the recipe's hidden values.
        TrainingLauncher::Settings recipe =
            segstudio::ui::training::TrainDialog::presetSettings(segstudio::ui::training::TrainDialog::SegNetCamVid);
        recipe.epochs = 200;
        segstudio::ui::training::TrainDialog longer(QStringLiteral("longer"), recipe);
        QCOMPARE(longer.findChild<QComboBox*>(QStringLiteral("preset"))->currentData().toInt(),
                 int(segstudio::ui::training::TrainDialog::Custom));
        QVERIFY(longer.settings().recipe);
    }

    // Issue 25: the dialog's default way is "Train for 30 minutes" (--time-budget), epochs the
    // alternative; the published recipe keeps its 100 epochs; Train again keeps a run's budget.
    void trainForThirtyMinutesByDefault()
    {
        TrainingDock dock;
        segstudio::ui::training::TrainDialog dialog(QStringLiteral("r"), dock.proposedSettings());
        auto* byTime = dialog.findChild<QRadioButton*>(QStringLiteral("byTime"));
        auto* epochs = dialog.findChild<QSpinBox*>(QStringLiteral("epochs"));
        QVERIFY(byTime && byTime->isChecked() && epochs && !epochs->isEnabled());
        QCOMPARE(dialog.settings().minutes, 30);
        QStringList arguments = segstudio::ui::common::TrainerArguments::train(QStringLiteral("/r"), dialog.settings());
        QCOMPARE(arguments.at(arguments.indexOf(QStringLiteral("--time-budget")) + 1), QStringLiteral("30m"));
        QVERIFY(!arguments.contains(QStringLiteral("--epochs")));

        dialog.findChild<QRadioButton*>(QStringLiteral("byEpochs"))->setChecked(true);
        QVERIFY(epochs->isEnabled());
        epochs->setValue(12);
        arguments = segstudio::ui::common::TrainerArguments::train(QStringLiteral("/r"), dialog.settings());
        QCOMPARE(arguments.at(arguments.indexOf(QStringLiteral("--epochs")) + 1), QStringLiteral("12"));
        QVERIFY(!arguments.contains(QStringLiteral("--time-budget")));

        dialog.applyPreset(segstudio::ui::training::TrainDialog::SegNetCamVid);
        QCOMPARE(dialog.settings().minutes, 0);
        QCOMPARE(dialog.settings().epochs, 100);

        QTemporaryDir dir;
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/budgeted"));
        writeText(QDir(run).filePath(QStringLiteral("config.json")), R"({"epochs":100,"timeBudgetSeconds":7200})");
        QCOMPARE(TrainingLauncher::settingsOfRun(run, {}).minutes, 120);
    }

    // Issue 11: presets (the published SegNet recipe first), every field editable, devices from
    // the engine with the CPU or GPUs (several = data parallel), problems explained before launch.
    void trainDialogPresetsAndDevices()
    {
        const QList<TrainingLauncher::DeviceChoice> devices{{QStringLiteral("cpu"), QStringLiteral("2 cores"), 0},
                                                            {QStringLiteral("cuda:0"), QStringLiteral("H100"), 80ll << 30},
                                                            {QStringLiteral("cuda:1"), QStringLiteral("H100"), 80ll << 30}};
        segstudio::ui::training::TrainDialog dialog(
            QStringLiteral("r"),
            segstudio::ui::training::TrainDialog::presetSettings(segstudio::ui::training::TrainDialog::EngineDefaults),
            {}, TrainingLauncher::builtInModels(), nullptr, devices);
        auto* preset = dialog.findChild<QComboBox*>(QStringLiteral("preset"));
        QVERIFY(preset);
        QVERIFY(preset->itemText(0).contains(QStringLiteral("SegNet · CamVid")));
        QCOMPARE(preset->currentIndex(), 1);  // the defaults that learn are proposed
        QCOMPARE(dialog.settings().devices, QStringList{QStringLiteral("cuda:0")});  // "auto": the first GPU
        QVERIFY(!dialog.settings().recipe);

        dialog.applyPreset(segstudio::ui::training::TrainDialog::SegNetCamVid);
        auto recipe = dialog.settings();
        QVERIFY(recipe.recipe);
        QCOMPARE(recipe.model, QStringLiteral("segnet"));
        QCOMPARE(recipe.batch, 4);
        QCOMPARE(recipe.height, 360);
        QCOMPARE(recipe.classWeighting, QStringLiteral("median"));
        const QStringList arguments = segstudio::ui::common::TrainerArguments::train(QStringLiteral("/r"), recipe);
        for (const char* expected : {"--recipe", "--optimizer", "sgd", "--lr", "0.001", "--class-weighting", "median", "--device", "cuda:0"})
            QVERIFY2(arguments.contains(QString::fromLatin1(expected)), expected);

        // Both GPUs: data parallel; the CPU then is off. Nothing ticked: explained, Train disabled.
        QList<QCheckBox*> boxes = dialog.findChildren<QCheckBox*>();
        QCheckBox* cpu = nullptr;
        QCheckBox* second = nullptr;
        for (QCheckBox* box : boxes) {
            if (box->property("device").toString() == QLatin1String("cpu"))
                cpu = box;
            if (box->property("device").toString() == QLatin1String("cuda:1"))
                second = box;
        }
        QVERIFY(cpu && second);
        second->setChecked(true);
        QCOMPARE(dialog.settings().devices, segstudio::test::strings({"cuda:0", "cuda:1"}));
        QVERIFY(segstudio::ui::common::TrainerArguments::train(QStringLiteral("/r"), dialog.settings())
                    .contains(QStringLiteral("cuda:0,cuda:1")));
        cpu->setChecked(true);
        QCOMPARE(dialog.settings().devices, QStringList{QStringLiteral("cpu")});
        cpu->setChecked(false);
        QVERIFY(!dialog.canTrain());
        QVERIFY2(dialog.problem().contains(QStringLiteral("device")), qPrintable(dialog.problem()));
    }

    void trainDialogExplainsATakenName()
    {
        QTemporaryDir runs;
        QVERIFY(QDir(runs.path()).mkdir(QStringLiteral("first")));
        segstudio::ui::training::TrainDialog dialog(QStringLiteral("first"), {}, runs.path());
        QVERIFY(!dialog.canTrain());
        QVERIFY2(dialog.problem().contains(QStringLiteral("exists already")), qPrintable(dialog.problem()));
        auto* name = dialog.findChild<QLineEdit*>(QStringLiteral("runName"));
        QVERIFY(name);
        name->setText(QStringLiteral("second"));
        QVERIFY(dialog.canTrain());
        QVERIFY(dialog.problem().isEmpty());
        name->clear();
        QVERIFY(!dialog.canTrain());
    }

    void trainDialogKeepsTheSettings()
    {
        TrainingLauncher::Settings settings;
        settings.model = QStringLiteral("segnet-basic");
        settings.epochs = 12;
        settings.height = 360;
        settings.width = 480;
        settings.batch = 8;
        segstudio::ui::training::TrainDialog dialog(QStringLiteral("first"), settings);
        QCOMPARE(dialog.runName(), QStringLiteral("first"));
        const auto back = dialog.settings();
        QCOMPARE(back.model, settings.model);
        QCOMPARE(back.epochs, 12);
        QCOMPARE(back.height, 360);
        QCOMPARE(back.width, 480);
        QCOMPARE(back.batch, 8);
    }

    // Issue 50, section 2: the dialog trains on random crops, a share of the pack's sides (CamVid's
    // best 30-minute CPU run: 144x192 of 360x480, 40 %), so another pack gets a proportional crop
    // and none is ever larger than the pack. "Image size" is the pack's resize, and says so.
    void theDialogProposesACropOfThePack()
    {
        using segstudio::ui::common::TrainerArguments;
        using segstudio::ui::training::TrainDialog;
        const TrainingLauncher::Settings defaults = TrainDialog::presetSettings(TrainDialog::EngineDefaults);
        QCOMPARE(defaults.cropPercent, TrainDialog::kDefaultCropPercent);
        TrainingLauncher::Settings camvid = defaults;
        camvid.height = 360;
        camvid.width = 480;
        QCOMPARE(camvid.crop(), QSize(192, 144));
        QStringList arguments = TrainerArguments::train(QStringLiteral("/r"), camvid);
        QCOMPARE(arguments.at(arguments.indexOf(QStringLiteral("--crop-height")) + 1), QStringLiteral("144"));
        QCOMPARE(arguments.at(arguments.indexOf(QStringLiteral("--crop-width")) + 1), QStringLiteral("192"));
        TrainingLauncher::Settings other = defaults;  // packed at 180x240
        QCOMPARE(other.crop(), QSize());  // 40 % would be 72 x 96: whole images instead
        TrainingLauncher::Settings large = defaults;  // 720 x 960: the share, 288 x 384
        large.height = 720;
        large.width = 960;
        QCOMPARE(large.crop(), QSize(384, 288));
        other.cropHeight = 500;  // a size of its own wins over the share, within the pack
        other.cropWidth = 100;
        QCOMPARE(other.crop(), QSize(100, 180));
        // Whole images are said as such: the engine's own default crops (--crop-share 0.4).
        other.cropHeight = other.cropWidth = other.cropPercent = 0;
        const QStringList whole = TrainerArguments::train(QStringLiteral("/r"), other);
        QVERIFY(!whole.contains(QStringLiteral("--crop-height")));
        QCOMPARE(whole.value(whole.indexOf(QStringLiteral("--crop-share")) + 1), QStringLiteral("0"));
        const QStringList recipe =
            TrainerArguments::train(QStringLiteral("/r"), TrainDialog::presetSettings(TrainDialog::SegNetCamVid));
        QVERIFY(!recipe.contains(QStringLiteral("--crop-height")));  // the published recipe: whole images
        QCOMPARE(recipe.value(recipe.indexOf(QStringLiteral("--crop-share")) + 1), QStringLiteral("0"));

        TrainDialog dialog(QStringLiteral("r"), defaults);
        auto* crop = dialog.findChild<QComboBox*>(QStringLiteral("crop"));
        auto* height = dialog.findChild<QSpinBox*>(QStringLiteral("height"));
        auto* width = dialog.findChild<QSpinBox*>(QStringLiteral("width"));
        QVERIFY(crop && height && width);
        QVERIFY2(height->toolTip().contains(QStringLiteral("resized")), qPrintable(height->toolTip()));
        QCOMPARE(crop->currentData().toInt(), 40);
        QCOMPARE(dialog.findChild<QComboBox*>(QStringLiteral("preset"))->currentData().toInt(), int(TrainDialog::EngineDefaults));
        QVERIFY2(dialog.findChild<QLabel*>(QStringLiteral("cropPixels"))->text().contains(QStringLiteral("whole images")),
                 qPrintable(dialog.findChild<QLabel*>(QStringLiteral("cropPixels"))->text()));  // 180 x 240: no crop
        height->setValue(360);
        width->setValue(480);
        QCOMPARE(dialog.settings().crop(), QSize(192, 144));  // the share follows the pack
        QVERIFY2(dialog.findChild<QLabel*>(QStringLiteral("cropPixels"))->text().contains(QStringLiteral("144 × 192")),
                 qPrintable(dialog.findChild<QLabel*>(QStringLiteral("cropPixels"))->text()));
        // A size of its own starts at the share's pixels and stays within the pack.
        crop->setCurrentIndex(crop->findData(-1));
        auto* cropHeight = dialog.findChild<QSpinBox*>(QStringLiteral("cropHeight"));
        QVERIFY(cropHeight);
        QCOMPARE(cropHeight->value(), 144);
        cropHeight->setValue(1000);
        QCOMPARE(cropHeight->value(), 360);
        height->setValue(320);
        QCOMPARE(dialog.settings().crop().height(), 320);
        QCOMPARE(dialog.settings().cropHeight, 320);
        dialog.applyPreset(TrainDialog::SegNetCamVid);
        QCOMPARE(crop->currentData().toInt(), 0);
        QVERIFY(dialog.settings().crop().isEmpty());
        dialog.applyPreset(TrainDialog::EngineDefaults);
        QCOMPARE(crop->currentData().toInt(), 40);
        QCOMPARE(dialog.settings().crop(), QSize());  // back at 180 x 240: whole images

        // A project of 360x480 images (CamVid): the defaults pack at that size and crop 144x192,
        // the CLI's measured recipe, and "Defaults that learn" names those fields.
        const QSize camvidSize(480, 360);
        TrainDialog camvidDialog(QStringLiteral("r"), TrainDialog::presetSettings(TrainDialog::EngineDefaults, camvidSize),
                                 {}, TrainingLauncher::builtInModels(), nullptr, {}, camvidSize);
        QCOMPARE(camvidDialog.settings().height, 360);
        QCOMPARE(camvidDialog.settings().crop(), QSize(192, 144));
        QCOMPARE(camvidDialog.findChild<QComboBox*>(QStringLiteral("preset"))->currentData().toInt(), int(TrainDialog::EngineDefaults));
        camvidDialog.applyPreset(TrainDialog::SegNetCamVid);
        camvidDialog.applyPreset(TrainDialog::EngineDefaults);
        QCOMPARE(camvidDialog.settings().width, 480);  // the preset returns to the project's size
        QCOMPARE(camvidDialog.settings().crop(), QSize(192, 144));
        QCOMPARE(camvidDialog.settings().batch, 0);  // the engine's default batch, as the CLI's runs
    }

    // Issue 50, section 2: Train… proposes what was last chosen for the project, also after a
    // restart (a 1-minute run on the demo stayed 30 minutes the next time); another project starts
    // from the defaults.
    void theDialogRemembersTheLastSettingsPerProject()
    {
        QSettings().remove(QStringLiteral("trainDialog"));
        QTemporaryDir dir;
        const QString first = QDir(dir.path()).filePath(QStringLiteral("first.segstudio"));
        const QString second = QDir(dir.path()).filePath(QStringLiteral("second/second.segstudio"));
        QVERIFY(QDir().mkpath(QFileInfo(second).path()));
        {
            TrainingDock dock;
            dock.setTrainer(writeFakeTrainer(dir.path()));
            dock.setProjectFile(first);
            QCOMPARE(dock.proposedSettings().minutes, 30);
            QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
            bool answered = false;
            QTimer::singleShot(0, [&answered] {
                auto* dialog = qobject_cast<segstudio::ui::training::TrainDialog*>(QApplication::activeModalWidget());
                if (!dialog)
                    return;
                dialog->findChild<QSpinBox*>(QStringLiteral("minutes"))->setValue(1);
                auto* crop = dialog->findChild<QComboBox*>(QStringLiteral("crop"));
                crop->setCurrentIndex(crop->findData(50));
                answered = true;
                dialog->accept();
            });
            partOf<QPushButton>(dock, "trainButton")->click();
            QVERIFY(answered);
            QVERIFY(finished.wait(60000));
            QCOMPARE(dock.proposedSettings().minutes, 1);
        }
        TrainingDock dock;  // the next session
        dock.setProjectFile(second);
        QCOMPARE(dock.proposedSettings().minutes, 30);
        QCOMPARE(dock.proposedSettings().cropPercent, 40);
        dock.setProjectFile(first);
        QCOMPARE(dock.proposedSettings().minutes, 1);
        QCOMPARE(dock.proposedSettings().cropPercent, 50);
        segstudio::ui::training::TrainDialog dialog(QStringLiteral("again"), dock.proposedSettings());
        QCOMPARE(dialog.findChild<QSpinBox*>(QStringLiteral("minutes"))->value(), 1);
        QVERIFY(dialog.findChild<QRadioButton*>(QStringLiteral("byTime"))->isChecked());
        QCOMPARE(dialog.findChild<QComboBox*>(QStringLiteral("crop"))->currentData().toInt(), 50);

        // Every field goes through the store, a custom crop and the devices too.
        TrainingLauncher::Settings custom;
        custom.model = QStringLiteral("segnet-tiny");
        custom.epochs = 12;
        custom.height = 360;
        custom.width = 480;
        custom.cropHeight = 200;
        custom.cropWidth = 300;
        custom.learningRate = 0.002;
        custom.flip = false;
        custom.colorJitter = 0.4;
        custom.devices = segstudio::test::strings({"cuda:0", "cuda:1"});
        segstudio::ui::training::TrainSettingsStore::write(second, custom);
        const auto back = segstudio::ui::training::TrainSettingsStore::read(second);
        QVERIFY(back.has_value());
        QCOMPARE(back->model, custom.model);
        QCOMPARE(back->minutes, 0);
        QCOMPARE(back->epochs, 12);
        QCOMPARE(back->crop(), QSize(300, 200));
        QCOMPARE(back->learningRate, 0.002);
        QCOMPARE(back->flip, false);
        QCOMPARE(back->colorJitter, 0.4);
        QCOMPARE(back->devices, custom.devices);
        QSettings().remove(QStringLiteral("trainDialog"));
    }

    // Issue 50, section 4: a click aimed at Stop landed between two rows when the status under
    // the buttons grew a line. The buttons sit above everything that changes height.
    void buttonsKeepTheirPlaceWhenTheStatusGrows()
    {
        QTemporaryDir dir;
        writeRun(QDir(dir.path()).filePath(QStringLiteral("runs/a")), runLine(2, 10) + trainLine(10, 1.5, 0.3));
        TrainingDock dock;
        dock.resize(1200, 700);
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        auto* status = partOf<QLabel>(dock, "trainingStatus");
        const auto places = [&dock] {
            QList<QRect> rects;
            for (const char* name : {"trainButton", "trainAgainButton", "stopButton", "stopAfterEpochButton", "resumeButton",
                                     "openRunButton"}) {
                const QPushButton* button = partOf<QPushButton>(dock, name);
                rects << QRect(button->mapTo(&dock, QPoint(0, 0)), button->size());
            }
            return rects;
        };
        status->setText(QStringLiteral("Training a…"));
        QApplication::processEvents();
        const int oneLine = status->height();
        const QList<QRect> before = places();
        status->setText(QStringLiteral("Training failed: the trainer ended.\nsegstudio-train: cannot write the checkpoint\n"
                                       "(No space left on device)"));
        QTRY_VERIFY(status->height() > oneLine);  // the status did grow
        QCOMPARE(places(), before);
        partOf<QProgressBar>(dock, "packingBar")->show();  // packing starts
        QApplication::processEvents();
        QCOMPARE(places(), before);
    }

    void trainerArguments()
    {
        TrainingLauncher::Settings settings;
        QVERIFY(settings.model.isEmpty());  // the engine's default model
        const QStringList pack = segstudio::ui::common::TrainerArguments::pack(
            QStringLiteral("/p/x.segstudio"), QStringLiteral("val"), QStringLiteral("/p/runs/a/val.pack"),
            settings.height, settings.width);
        QCOMPARE(pack, segstudio::test::strings({"pack", "--project", "/p/x.segstudio", "--split", "val", "--out",
                                                 "/p/runs/a/val.pack", "--height", "180", "--width", "240"}));
        settings.epochs = 7;
        QCOMPARE(settings.batch, 0);  // the engine's default batch: no option
        const QStringList train = segstudio::ui::common::TrainerArguments::train(QStringLiteral("/p/runs/a"), settings);
        // Whole images (no crop chosen) are said as such: the engine's own default crops.
        QCOMPARE(train, segstudio::test::strings({"train", "--train-pack", "/p/runs/a/train.pack", "--val-pack",
                                                  "/p/runs/a/val.pack", "-o", "/p/runs/a", "--epochs", "7",
                                                  "--crop-share", "0"}));
        settings.batch = 4;
        const QStringList batch = segstudio::ui::common::TrainerArguments::train(QStringLiteral("/p/runs/a"), settings);
        QCOMPARE(batch.mid(batch.indexOf(QStringLiteral("--batch")), 2), segstudio::test::strings({"--batch", "4"}));
        settings.model = QStringLiteral("segnet-tiny");
        QVERIFY(segstudio::ui::common::TrainerArguments::train(QStringLiteral("/p/runs/a"), settings)
                    .contains(QStringLiteral("segnet-tiny")));
        settings.colorJitter = 0.4;  // off (0) says nothing, as the exact list above shows
        const QStringList jitter = segstudio::ui::common::TrainerArguments::train(QStringLiteral("/p/runs/a"), settings);
        QCOMPARE(jitter.mid(jitter.indexOf(QStringLiteral("--color-jitter")), 2),
                 segstudio::test::strings({"--color-jitter", "0.4"}));
    }

    void trainRunsPackPackTrain()
    {
        QTemporaryDir dir;
        TrainingDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
        QVERIFY(dock.startTraining(QStringLiteral("run1"), {}));
        QVERIFY(dock.isBusy());
        QVERIFY(!dock.startTraining(QStringLiteral("run2"), {}));  // one at a time
        QCOMPARE(dock.currentRunDirectory(), QDir(dir.path()).filePath(QStringLiteral("runs/run1")));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        const QString log = logOf(dock)->toPlainText();
        QVERIFY2(log.contains(QStringLiteral("fake pack --project")) && log.contains(QStringLiteral("--split train"))
                     && log.contains(QStringLiteral("--split val")) && log.contains(QStringLiteral("fake train --train-pack")),
                 qPrintable(log));
        pollNow(dock);
        QCOMPARE(count(dock, MetricsPlot::TrainLoss), 1);
        QVERIFY(dock.runNames().contains(QStringLiteral("run1")));
    }

    // Issue 60.8: a 2-minute run from the dialog (val mIoU 0.421) silently replaced the chosen
    // 0.700 model for predictions and Smart Click. A run trained here is watched, and takes over
    // only once it validated better on the same images; the status bar hears why either way. A
    // run the user selects is the model in use at once, and stays so when the project reopens.
    void aWeakerRunTrainedHereNeverTakesOver()
    {
        QTemporaryDir dir;
        const auto project = segstudio::test::writeProject(dir.path(), {{"a.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                                        {"v.png", Split::Val, LabelStatus::Labelled, {1, 0}, 0}});
        const QString valPack = QDir(dir.path()).filePath(QStringLiteral("val.pack"));
        segstudio::data::PackOptions options;
        options.height = 32;
        options.width = 48;
        segstudio::data::DatasetPacker::pack(project, Split::Val, valPack.toStdString(), options);
        const QString chosen = QDir(dir.path()).filePath(QStringLiteral("runs/chosen"));
        QVERIFY(QDir().mkpath(chosen + QStringLiteral("/checkpoints")));
        writeText(chosen + QStringLiteral("/checkpoints/best.pt"), "model");
        writeRun(chosen, "{\"kind\":\"val\",\"epoch\":1,\"iteration\":1,\"loss\":1.0,\"accuracy\":0.5,\"mean_iou\":0.7}\n");
        QVERIFY(QFile::copy(valPack, chosen + QStringLiteral("/val.pack")));
        const QString projectFile = QString::fromStdString(project.file().string());
        QSettings().remove(QStringLiteral("modelChoice"));

        TrainingDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        QSignalSpy modelChanged(&dock, &TrainingDock::modelRunChanged);
        QSignalSpy messages(&dock, &TrainingDock::modelMessage);
        dock.setProjectFile(projectFile);
        QCOMPARE(dock.modelRunDirectory(), chosen);
        qputenv("FAKE_VAL_PACK", valPack.toUtf8());
        const auto train = [&](const QString& name, const char* meanIoU) {
            qputenv("FAKE_TRAIN_VAL_IOU", meanIoU);
            QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
            messages.clear();
            QVERIFY(dock.startTraining(name, {}));
            QCOMPARE(dock.currentRunDirectory(), QDir(dir.path()).filePath(QStringLiteral("runs/") + name));  // watched
            QVERIFY(finished.wait(60000));
            QVERIFY(finished.at(0).at(0).toBool());
        };
        train(QStringLiteral("weak"), "0.421");
        qunsetenv("FAKE_TRAIN_VAL_IOU");
        QCOMPARE(dock.modelRunDirectory(), chosen);
        QVERIFY2(statusOf(dock).contains(QStringLiteral("validated no better")), qPrintable(statusOf(dock)));
        // Reopened, the project does not fall to its newest run (the weak one): the one in use stays.
        dock.setProjectFile({});
        dock.setProjectFile(projectFile);
        QCOMPARE(dock.modelRunDirectory(), chosen);
        // Opened with no choice remembered (a new machine): the best validated run, not the newest.
        QSettings().remove(QStringLiteral("modelChoice"));
        dock.setProjectFile({});
        dock.setProjectFile(projectFile);
        QCOMPARE(dock.modelRunDirectory(), chosen);
        QCOMPARE(messages.size(), 1);
        QVERIFY2(messages.at(0).at(0).toString().contains(
                     QStringLiteral("weak validated no better (mIoU 0.421 against 0.700 of chosen on the same 1 validation images)")),
                 qPrintable(messages.at(0).at(0).toString()));
        train(QStringLiteral("strong"), "0.75");
        qunsetenv("FAKE_TRAIN_VAL_IOU");
        const QString strong = QDir(dir.path()).filePath(QStringLiteral("runs/strong"));
        QCOMPARE(dock.modelRunDirectory(), strong);
        QCOMPARE(modelChanged.last().at(0).toString(), strong);
        QVERIFY2(messages.at(0).at(0).toString().contains(QStringLiteral("strong validated better")),
                 qPrintable(messages.at(0).at(0).toString()));
        // The user's choice: a click on a run, kept across a reopening of the project.
        QVERIFY(runsTableOf(dock)->setCurrentRun(QStringLiteral("weak")));
        const QString weak = QDir(dir.path()).filePath(QStringLiteral("runs/weak"));
        QCOMPARE(dock.modelRunDirectory(), weak);
        dock.setProjectFile({});
        dock.setProjectFile(projectFile);
        QCOMPARE(dock.modelRunDirectory(), weak);
        qunsetenv("FAKE_VAL_PACK");
    }

    void unsavedLabelsStopTheStart()
    {
        QTemporaryDir dir;
        TrainingDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        dock.setBeforeTraining([] { return false; });  // e.g. a full disk
        QVERIFY(!dock.startTraining(QStringLiteral("run1"), {}));
        QVERIFY(!dock.isBusy());
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("runs/run1"))));
        QVERIFY2(statusOf(dock).contains(QStringLiteral("could not be saved")), qPrintable(statusOf(dock)));
    }

    void failedTrainingShowsTheReason()
    {
        QTemporaryDir dir;
        qputenv("FAKE_TRAIN_FAIL", "1");
        TrainingDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
        QVERIFY(dock.startTraining(QStringLiteral("run1"), {}));
        QVERIFY(finished.wait(60000));
        qunsetenv("FAKE_TRAIN_FAIL");
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.startsWith(QStringLiteral("Training failed: ")) && message.contains(QStringLiteral("last.pt"))
                     && message.contains(QStringLiteral("No space left on device")),
                 qPrintable(message));
        QVERIFY(logOf(dock)->toPlainText().contains(message));
        // The fake wrote no state: the panel says what the launcher knows.
        QCOMPARE(infoOf(dock)->stateText(), QStringLiteral("Failed"));
    }

    // Stop, then close the window: the trainer gets one SIGTERM, not two (a second one killed the
    // real trainer mid-checkpoint), and the window waits until it has ended without asking.
    // Cancel (before Stop) keeps everything as it was.
    void stopThenCloseSendsOneTerminateAndWaits()
    {
        QTemporaryDir dir;
        qputenv("FAKE_TRAIN_SLOW_STOP", "1");
        auto dock = std::make_unique<TrainingDock>();
        dock->setTrainer(writeFakeTrainer(dir.path()));
        dock->setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        QSignalSpy output(logOf(*dock), &QPlainTextEdit::textChanged);
        QSignalSpy finished(dock.get(), &TrainingDock::trainingFinished);
        QVERIFY(dock->startTraining(QStringLiteral("run1"), {}));
        const QString run = dock->currentRunDirectory();
        while (!logOf(*dock)->toPlainText().contains(QStringLiteral("waiting")) && finished.isEmpty())
            QVERIFY(output.wait(60000));
        qunsetenv("FAKE_TRAIN_SLOW_STOP");

        answer(QStringLiteral("Cancel"));
        QVERIFY(!dock->confirmClose(dock.get()));
        QVERIFY(dock->isBusy());

        dock->stopTraining();  // the Stop button
        QTRY_COMPARE_WITH_TIMEOUT(linesOf(QDir(run).filePath(QStringLiteral("terms"))), 1, 60000);
        // Stopped already: closing asks nothing (issue 46.12: it asked "A training is running"),
        // it waits for the checkpoint.
        bool asked = false;
        QTimer::singleShot(0, [&asked, release = QDir(run).filePath(QStringLiteral("release"))] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = true;
                box->reject();
            }
            writeText(release, QByteArray());
        });
        QVERIFY(dock->confirmClose(dock.get()));
        QVERIFY(!asked);
        QVERIFY(!dock->isBusy());  // the window waited for the end
        QCOMPARE(finished.size(), 1);
        QVERIFY2(finished.at(0).at(1).toString().contains(QStringLiteral("checkpoint")), qPrintable(finished.at(0).at(1).toString()));
        dock.reset();
        QCOMPARE(linesOf(QDir(run).filePath(QStringLiteral("terms"))), 1);
    }

    // "Keep Training in the Background" (the default): the window goes, the trainer does not and
    // gets no signal; the panel of the next window finds it by its run's lock, and Stop reaches
    // it from there, once.
    void keepTrainingInTheBackgroundAndReattach_data()
    {
        QTest::addColumn<bool>("stopFromHere");
        QTest::newRow("stopped from the next window") << true;
        // Issue 47.14: "Training in the background (process N): Stop ..." stayed after it ended.
        QTest::newRow("it ends by itself") << false;
    }

    void keepTrainingInTheBackgroundAndReattach()
    {
        QFETCH(bool, stopFromHere);
        QTemporaryDir dir;
        const QString trainerDir = QDir(dir.path()).filePath(QStringLiteral("bin"));
        QDir().mkpath(trainerDir);
        // Named as the real one: the panel only re-attaches to a process called segstudio-train.
        const QString fake = writeFakeTrainer(trainerDir);
        const QString trainer = QDir(trainerDir).filePath(QStringLiteral("segstudio-train"));
        QVERIFY(QFile::rename(fake, trainer));
        const QString projectFile = QDir(dir.path()).filePath(QStringLiteral("p.segstudio"));
        qputenv("FAKE_TRAIN_SLOW_STOP", "1");
        auto dock = std::make_unique<TrainingDock>();
        dock->setTrainer(trainer);
        dock->setProjectFile(projectFile);
        QSignalSpy output(logOf(*dock), &QPlainTextEdit::textChanged);
        QVERIFY(dock->startTraining(QStringLiteral("run1"), {}));
        const QString run = dock->currentRunDirectory();
        while (!logOf(*dock)->toPlainText().contains(QStringLiteral("waiting")))
            QVERIFY(output.wait(60000));
        qunsetenv("FAKE_TRAIN_SLOW_STOP");
        const auto pid = TrainingLauncher::liveTrainerOf(run);
        QVERIFY(pid.has_value());

        answer(QStringLiteral("Keep Training in the Background"));
        QVERIFY(dock->confirmClose(dock.get()));
        dock.reset();  // the window closes
        QVERIFY(::kill(pid_t(*pid), 0) == 0);  // still training
        QVERIFY(!QFile::exists(QDir(run).filePath(QStringLiteral("terms"))));

        TrainingDock next;
        next.setTrainer(trainer);
        next.setProjectFile(projectFile);
        QVERIFY(next.selectRun(QStringLiteral("run1")));
        QTRY_VERIFY(statusOf(next).contains(QStringLiteral("Training in the background")));
        if (!stopFromHere) {
            writeText(QDir(run).filePath(QStringLiteral("release")), QByteArray());
            QTRY_VERIFY_WITH_TIMEOUT(!TrainingLauncher::liveTrainerOf(run).has_value(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(statusOf(next).contains(QStringLiteral("has ended")), 60000);
            QVERIFY(!statusOf(next).contains(QStringLiteral("Training in the background")));
            return;
        }
        QVERIFY(partOf<QPushButton>(next, "stopButton")->isEnabled());
        QVERIFY(!partOf<QPushButton>(next, "resumeButton")->isEnabled());
        partOf<QPushButton>(next, "stopButton")->click();
        partOf<QPushButton>(next, "stopButton")->click();  // disabled after the first: nothing more is sent
        QTRY_COMPARE_WITH_TIMEOUT(linesOf(QDir(run).filePath(QStringLiteral("terms"))), 1, 60000);
        QVERIFY(!partOf<QPushButton>(next, "stopButton")->isEnabled());
        writeText(QDir(run).filePath(QStringLiteral("release")), QByteArray());
        QTRY_VERIFY_WITH_TIMEOUT(!TrainingLauncher::liveTrainerOf(run).has_value(), 60000);
        QCOMPARE(linesOf(QDir(run).filePath(QStringLiteral("terms"))), 1);
        // The panel notices the end by itself (no record announces a process going away).
        QTRY_VERIFY_WITH_TIMEOUT(statusOf(next).contains(QStringLiteral("has ended")), 60000);
    }

    void processOutputHandlesCarriageReturns_data()
    {
        QTest::addColumn<QStringList>("chunks");
        QTest::addColumn<QString>("shown");
        QTest::newRow("lines") << segstudio::test::strings({"a\n", "b\n"}) << QStringLiteral("a\nb\n");
        QTest::newRow("progress") << segstudio::test::strings({"packing 1/3\rpacking 2/3", "\rpacking 3/3packed\n", "next\n"})
                                  << QStringLiteral("packing 3/3packed\nnext\n");
        QTest::newRow("crlf") << segstudio::test::strings({"a\r\nb\r\n"}) << QStringLiteral("a\nb\n");
        // Issue 27, item 2: a CRLF split across two reads keeps its line (it erased it).
        QTest::newRow("split crlf") << segstudio::test::strings({"a\r", "\nb"}) << QStringLiteral("a\nb");
        QTest::newRow("progress ending a chunk") << segstudio::test::strings({"packing 1/3\r", "packing 2/3\r", "done\n"})
                                                 << QStringLiteral("done\n");
    }

    void processOutputHandlesCarriageReturns()
    {
        QFETCH(QStringList, chunks);
        QFETCH(QString, shown);
        QPlainTextEdit view;
        for (const QString& chunk : chunks)
            segstudio::ui::common::appendProcessOutput(&view, chunk);
        QCOMPARE(view.toPlainText(), shown);
    }

    // Issue 22: Stop, then close the window choosing "Stop and Save a Checkpoint", with the real
    // trainer of this build. It must end as a stop does: the last state record says "stopped"
    // and a checkpoint of where it was is on disk (a second SIGTERM used to kill it mid-step).
    void realTrainerStopThenCloseEndsStoppedWithItsCheckpoint()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"a.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                                  {"b.png", Split::Train, LabelStatus::Labelled, {1, 2}, 0},
                                                                  {"c.png", Split::Val, LabelStatus::Labelled, {0, 2}, 1}});
        TrainingDock dock;
        dock.setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
        dock.setProjectFile(QString::fromStdString(project.file().string()));
        TrainingLauncher::Settings settings;
        settings.epochs = 100000;  // runs until stopped
        settings.height = 32;
        settings.width = 48;
        settings.batch = 2;
        QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
        QVERIFY(dock.startTraining(QStringLiteral("stopped"), settings));
        const QString run = dock.currentRunDirectory();
        // Training, past its first epoch's checkpoint (so the stop has iterations to lose).
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || QFile::exists(QDir(run).filePath(QStringLiteral("checkpoints/last.pt"))), 300000);
        QVERIFY2(finished.isEmpty(), qPrintable(logOf(dock)->toPlainText()));
        dock.stopTraining();
        answer(QStringLiteral("Stop and Save a Checkpoint"));
        QVERIFY(dock.confirmClose(&dock));
        QVERIFY(!dock.isBusy());
        const auto records = recordsOf(run);
        QVERIFY(!records.empty());
        std::optional<RunState> last;
        for (const auto& record : records)
            if (record.kind == MetricsRecord::Kind::State)
                last = record.state;
        QVERIFY(last.has_value());
        QVERIFY2(*last == RunState::Stopped, qPrintable(logOf(dock)->toPlainText()));
        QVERIFY(partOf<QPushButton>(dock, "resumeButton")->isEnabled());
    }

    // A time-budgeted run resumes for minutes, not epochs: Resume asks for a new total of training
    // time, proposing the run's own budget while it is stopped (keeping it passes nothing, so the
    // run uses what its sessions left) and twice it once the run has finished.
    void resumeOfABudgetedRunAsksForMinutes()
    {
        QTemporaryDir dir;
        TrainingDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setProjectFile(QDir(dir.path()).filePath(QStringLiteral("p.segstudio")));
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/budgeted"));
        writeRun(run, budgetedRunLine(600) + timedTrainLine(40, 240) + stateLine("stopped", 40));
        writeText(QDir(run).filePath(QStringLiteral("checkpoints/last.pt")), "resumable");
        dock.refreshRuns();
        QVERIFY(showRun(dock, QStringLiteral("budgeted")));
        pollNow(dock);
        QVERIFY(partOf<QPushButton>(dock, "resumeButton")->isEnabled());

        const auto resumeAnswering = [&](int minutes, QString* question, int* proposed) {
            QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
            answerNumber(minutes, question, proposed);
            partOf<QPushButton>(dock, "resumeButton")->click();
            return finished.wait(60000);
        };
        QString question;
        int proposed = 0;
        QVERIFY(resumeAnswering(10, &question, &proposed));
        QVERIFY2(question.contains(QStringLiteral("minutes")) && question.contains(QStringLiteral("40 %")), qPrintable(question));
        QCOMPARE(proposed, 10);
        QString log = logOf(dock)->toPlainText();
        QVERIFY2(log.contains(QStringLiteral("fake train --resume %1").arg(run)) && !log.contains(QStringLiteral("--time-budget"))
                     && !log.contains(QStringLiteral("--epochs")),
                 qPrintable(log));

        writeText(QDir(run).filePath(QStringLiteral("metrics.jsonl")), stateLine("finished", 100), QIODevice::Append);
        pollNow(dock);
        QVERIFY(resumeAnswering(25, &question, &proposed));
        QCOMPARE(proposed, 20);
        log = logOf(dock)->toPlainText();
        QVERIFY2(log.contains(QStringLiteral("fake train --resume %1 --time-budget 25m").arg(run)), qPrintable(log));
    }

    // The real segstudio-train of this build: train a tiny run through the panel, see its
    // curves, then predict the val images and get their IoU in the model.
    void realTrainerEndToEnd()
    {
        const QString trainer = QStringLiteral(SEGSTUDIO_TRAIN_EXE);
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"a.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                                  {"b.png", Split::Train, LabelStatus::Labelled, {1, 2}, 0},
                                                                  {"c.png", Split::Val, LabelStatus::Labelled, {0, 2}, 1},
                                                                  {"d.png", Split::Val, LabelStatus::Labelled, {2, 1}, 0}});
        TrainingDock dock;
        dock.setTrainer(trainer);
        dock.setProjectFile(QString::fromStdString(project.file().string()));
        TrainingLauncher::Settings settings;
        settings.epochs = 2;
        settings.height = 32;
        settings.width = 48;
        settings.batch = 2;
        QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
        QSignalSpy packing(partOf<TrainingLauncher>(dock, "trainingLauncher"), &TrainingLauncher::packingProgress);
        QSignalSpy packed(partOf<TrainingLauncher>(dock, "trainingLauncher"), &TrainingLauncher::packingEnded);
        int saves = 0;
        dock.setBeforeTraining([&saves] { return ++saves > 0; });
        QVERIFY(dock.startTraining(QStringLiteral("real"), settings));
        QCOMPARE(saves, 1);
        QVERIFY(finished.wait(300000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(logOf(dock)->toPlainText()));
        // The packer's "packing done/total" became progress: both splits, each to its end.
        QStringList completed;
        for (const auto& step : packing)
            if (step.at(1).toInt() == step.at(2).toInt() && step.at(2).toInt() == 2)
                completed << step.at(0).toString();
        QCOMPARE(completed, QStringList({QStringLiteral("train"), QStringLiteral("val")}));
        QCOMPARE(packed.size(), 1);
        QVERIFY(partOf<QProgressBar>(dock, "packingBar")->isHidden());
        pollNow(dock);
        // Two epochs of one iteration: one val line each; train lines come every 10 iterations.
        QCOMPARE(count(dock, MetricsPlot::ValMeanIoU), 2);
        QCOMPARE(count(dock, MetricsPlot::ValLoss), 2);
        QVERIFY(dock.progress().state() == RunState::Finished);
        QCOMPARE(infoOf(dock)->stateText(), QStringLiteral("Finished"));
        QCOMPARE(infoOf(dock)->progressPercent(), 100);

        segstudio::document::ProjectDocument document(project);
        ImageListModel model;
        model.setDocument(&document);
        segstudio::ui::predictions::PredictionsDock predictions;
        predictions.setTrainer(trainer);
        QObject::connect(&predictions, &segstudio::ui::predictions::PredictionsDock::scoresChanged, &model,
                         &segstudio::ui::browser::ImageListModel::setPredictionScores);
        predictions.setDocument(&document);
        predictions.setRunDirectory(dock.currentRunDirectory());
        QSignalSpy predicted(&predictions, &segstudio::ui::predictions::PredictionsDock::finished);
        QVERIFY(predictions.predictValidation());
        QVERIFY(predicted.wait(300000));
        QVERIFY2(predicted.at(0).at(0).toBool(), qPrintable(predictions.findChild<QPlainTextEdit*>(QStringLiteral("predictionsLog"))->toPlainText()));
        for (int row : {2, 3}) {
            const double iou = model.data(model.index(row, 0), ImageListModel::IoURole).toDouble();
            QVERIFY2(iou >= 0.0 && iou <= 1.0, qPrintable(QString::number(iou)));
        }
        QCOMPARE(model.data(model.index(0, 0), ImageListModel::IoURole).toDouble(), -1.0);

        // Evaluate…: the report of the val images opens, with one row per class.
        QSignalSpy shown(&predictions, &segstudio::ui::predictions::PredictionsDock::reportShown);
        QVERIFY(predictions.evaluate());
        QVERIFY2(shown.wait(300000), qPrintable(predictions.findChild<QPlainTextEdit*>(QStringLiteral("predictionsLog"))->toPlainText() + predictions.statusText()));
        QCOMPARE(predictions.reportView()->classTable()->rowCount(), 3);
        QCOMPARE(int(predictions.reportView()->report()->images().size()), 2);
        QVERIFY(QFileInfo::exists(QDir(predictions.evaluationFolder()).filePath(QStringLiteral("confusion.csv"))));

        // The editor's source: image 0 (train, never predicted) is predicted in the background
        // with the run's checkpoint, then comes from the cache.
        segstudio::ui::predictions::PredictionService service;
        service.setTrainer(trainer);
        service.setProject(&project);
        const QString checkpoint = QString::fromStdString(
            segstudio::run::RunLayout(dock.currentRunDirectory().toStdString()).checkpointToUse().string());
        service.setCheckpoint(dock.currentRunDirectory(), checkpoint);
        std::optional<std::size_t> readyIndex;
        cv::Mat classes;
        connect(&service, &segstudio::ui::predictions::PredictionService::predictionReady, this,
                [&](std::size_t index, const segstudio::data::PredictionCache::Entry& entry) {
                    readyIndex = index;
                    classes = entry.classes;
                });
        QSignalSpy problems(&service, &segstudio::ui::predictions::PredictionService::problem);
        service.request(0);
        QTRY_VERIFY_WITH_TIMEOUT(readyIndex.has_value() || !problems.isEmpty(), 120000);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.value(0).value(0).toString()));
        QCOMPARE(*readyIndex, std::size_t(0));
        QCOMPARE(classes.cols, segstudio::test::kImageWidth);  // at the image's size, not the pack's
        QVERIFY(QFileInfo::exists(QDir(service.cacheFolder()).filePath(QStringLiteral("a_entropy.png"))));

        // A project with other classes is refused, naming the reason.
        QTemporaryDir otherDir;
        auto other = segstudio::test::writeProject(
            otherDir.path(), {{"x.png", Split::Val, LabelStatus::Labelled, {0, 3}, 0}},
            segstudio::data::ClassSchema({{0, "a", {1, 2, 3}, ""}, {1, "b", {4, 5, 6}, ""}, {2, "c", {7, 8, 9}, ""}, {3, "d", {10, 11, 12}, ""}}));
        service.setProject(&other);
        service.request(0);
        QVERIFY(problems.wait(120000));
        QVERIFY2(problems.last().at(0).toString().contains(QStringLiteral("another class list")),
                 qPrintable(problems.last().at(0).toString()));
    }

    // Issue 11's controls with the real trainer: "Stop after this epoch" ends on an epoch boundary
    // with a checkpoint and the state "stopped"; Resume continues it to a longer end; the curve
    // stays one clean curve (strictly increasing iterations).
    void realTrainerStopsAfterTheEpochAndResumes()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"a.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                                  {"b.png", Split::Train, LabelStatus::Labelled, {1, 2}, 0},
                                                                  {"c.png", Split::Train, LabelStatus::Labelled, {2, 0}, 0},
                                                                  {"d.png", Split::Train, LabelStatus::Labelled, {1, 0}, 0},
                                                                  {"e.png", Split::Val, LabelStatus::Labelled, {0, 2}, 1}});
        TrainingDock dock;
        dock.setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
        dock.setProjectFile(QString::fromStdString(project.file().string()));
        TrainingLauncher::Settings settings;
        settings.model = QStringLiteral("segnet-tiny");
        settings.epochs = 500;  // far more than the test waits for
        settings.height = 32;
        settings.width = 48;
        settings.batch = 2;  // 2 iterations per epoch
        QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
        QVERIFY(dock.startTraining(QStringLiteral("stoppable"), settings));
        // Ask once the trainer trains (its signal handlers are set by then).
        QTRY_VERIFY_WITH_TIMEOUT((pollNow(dock), dock.progress().state() == RunState::Training), 300000);
        QVERIFY(dock.stopAfterEpoch());
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        pollNow(dock);
        QVERIFY(dock.progress().state() == RunState::Stopped);
        QCOMPARE(infoOf(dock)->stateText(), QStringLiteral("Stopped"));
        const std::int64_t stoppedAt = dock.progress().iteration();
        QVERIFY(stoppedAt > 0 && stoppedAt < 1000);
        QCOMPARE(stoppedAt % 2, std::int64_t(0));  // an epoch boundary
        const int epochsDone = dock.progress().epochsDone();
        QVERIFY(segstudio::run::RunLayout(dock.currentRunDirectory().toStdString()).canResume());

        finished.clear();
        QVERIFY(dock.resumeTraining(epochsDone + 2));
        QVERIFY(finished.wait(300000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(logOf(dock)->toPlainText()));
        pollNow(dock);
        QVERIFY(dock.progress().state() == RunState::Finished);
        QCOMPARE(dock.progress().iteration(), std::int64_t(2 * (epochsDone + 2)));
        std::int64_t last = -1;
        int runRecords = 0;
        for (const auto& record : recordsOf(dock.currentRunDirectory())) {
            runRecords += record.kind == MetricsRecord::Kind::Run;
            if (record.kind != MetricsRecord::Kind::Train)
                continue;
            QVERIFY(record.iteration > last);
            last = record.iteration;
        }
        QCOMPARE(runRecords, 2);  // one per session
    }

    // The demo project as the GUI makes it (DemoProject's 24 synthetic street scenes at 360x480),
    // trained by the real segstudio-train with every setting the Training panel proposes for it
    // (packed at the images' size, 144x192 crops, the engine's batch), for the epochs the README
    // names: the run must end with a useful model, not chance level.
    void defaultSettingsLearnTheDemo()
    {
        QTemporaryDir dir;
        const auto project = segstudio::data::SyntheticDatasetGenerator(360, 480).writeProject(
            std::filesystem::path(dir.path().toStdString()) / "demo", segstudio::ui::project::DemoProject::kImageCount,
            segstudio::ui::project::DemoProject::kSeed, "demo");
        const segstudio::document::ProjectDocument document(project);
        TrainingDock dock;
        dock.setTrainer(QStringLiteral(SEGSTUDIO_TRAIN_EXE));
        dock.setDocument(&document);
        TrainingLauncher::Settings settings = dock.proposedSettings();
        QCOMPARE(settings.minutes, 30);
        QCOMPARE(settings.height, 360);
        QCOMPARE(settings.width, 480);
        QCOMPARE(settings.crop(), QSize(192, 144));
        settings.minutes = 0;
        QCOMPARE(settings.epochs, 100);
        QSignalSpy finished(&dock, &TrainingDock::trainingFinished);
        QVERIFY(dock.startTraining(QStringLiteral("defaults"), settings));
        QVERIFY(finished.wait(1800000));  // the CTest entry lifts Qt Test's function limit to match
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(logOf(dock)->toPlainText()));
        QFile metrics(QDir(dock.currentRunDirectory()).filePath(QStringLiteral("metrics.jsonl")));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        double lastMeanIoU = -1;
        for (const QByteArray& line : metrics.readAll().split('\n')) {
            const auto record = QJsonDocument::fromJson(line).object();
            if (record.value(QStringLiteral("kind")).toString() == QStringLiteral("val"))
                lastMeanIoU = record.value(QStringLiteral("mean_iou")).toDouble();
        }
        QVERIFY2(lastMeanIoU >= 0.5, qPrintable(QStringLiteral("val mIoU %1 after a default run").arg(lastMeanIoU)));
    }

    void mainWindowHasTheTrainingDock()
    {
        QTemporaryDir dir;
        segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                                                   {"beta.png", Split::Val, LabelStatus::Labelled, {2}, 1}});
        QByteArray metrics;
        for (int i = 1; i <= 40; ++i)
            metrics += trainLine(i * 10, 2.2 * std::exp(-i / 15.0) + 0.05 * std::sin(i), 1.0 - 0.8 * std::exp(-i / 12.0));
        for (int epoch = 1; epoch <= 4; ++epoch)
            metrics += valLine(epoch * 100, QByteArray::number(0.55 - 0.45 * std::exp(-epoch / 1.5)).constData(),
                               0.5 + 1.2 * std::exp(-epoch / 1.5));
        writeRun(QDir(dir.path()).filePath(QStringLiteral("runs/20261122-101500")), metrics);

        MainWindow window;
        window.training()->setTrainer(QStringLiteral("/bin/true"));  // Train… enabled
        window.resize(1400, 900);
        QVERIFY(window.openProject(QDir(dir.path()).filePath(QStringLiteral("test.segstudio"))));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("trainingDock"));
        QVERIFY(dock);
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("predictionsDock")));
        QCOMPARE(dock->widget(), window.training());
        // The Train workspace shows it (issue 26); Label, where a project opens, does not.
        QVERIFY(!dock->isVisibleTo(&window));
        window.workspaces()->switchTo(segstudio::ui::shell::Workspaces::Workspace::Train);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.training()->runNames(), segstudio::test::strings({"20261122-101500"}));
        QVERIFY(showRun(*window.training(), QStringLiteral("20261122-101500")));
        QCOMPARE(count(*window.training(), MetricsPlot::TrainLoss), 40);
        QVERIFY(window.closeProject());
        QVERIFY(window.training()->runNames().isEmpty());
        QVERIFY(window.training()->currentRunDirectory().isEmpty());

        // SEGSTUDIO_SCREENSHOT=file.png saves the window with the panel open (docs/training.png).
        const QString shot = qEnvironmentVariable("SEGSTUDIO_SCREENSHOT");
        if (!shot.isEmpty()) {
            QVERIFY(window.openProject(QDir(dir.path()).filePath(QStringLiteral("test.segstudio"))));
            window.resizeDocks({dock}, {320}, Qt::Vertical);
            QVERIFY(showRun(*window.training(), QStringLiteral("20261122-101500")));
            plotOf(*window.training())->replot();
            QApplication::processEvents();
            QVERIFY(window.grab().save(shot));
        }
    }
};

QTEST_MAIN(TestTrainingDock)
#include "test_TrainingDock.moc"
