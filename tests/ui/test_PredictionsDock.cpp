#include "UiTestProject.h"
#include "common/TrainerArguments.h"

#include "browser/ImageListModel.h"
#include "predictions/PredictionService.h"
#include "predictions/LiveClassifier.h"
#include "predictions/ModelExporter.h"
#include "predictions/PredictionsDock.h"
#include "document/ProjectDocument.h"
#include "document/WorkerPool.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/project/PredictionCache.h"
#include "metrics/EvaluationReportFiles.h"
#include "predictions/EvaluationReportView.h"

#include <QDir>
#include <QFile>
#include <QAction>
#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <opencv2/imgproc.hpp>

#include <vector>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::browser::ImageListModel;
using segstudio::ui::predictions::ModelExporter;
using segstudio::ui::predictions::PredictionsDock;
namespace data = segstudio::data;

namespace {

// A stand-in for segstudio-train: records its arguments, one per line, and succeeds.
QString writeFakeTrainer(const QString& dir)
{
    const QString file = QDir(dir).filePath(QStringLiteral("fake-train"));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    // FAKE_ADAPT_SAYS: what predict's gate says, when the job adapts.
    out.write("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > \"$(dirname \"$0\")/arguments.txt\"\n"
              "case \"$*\" in *--adapt-norm*) [ -n \"$FAKE_ADAPT_SAYS\" ] && echo \"$FAKE_ADAPT_SAYS\";; esac\necho predicted\n");
    out.close();
    QFile::setPermissions(file, QFile::permissions(file) | QFileDevice::ExeOwner);
    return file;
}

// A run folder whose best.pt is a few bytes: the stand-in trainers never read it.
QString writeBestCheckpoint(const QString& run)
{
    const QString checkpoint = QDir(run).filePath(QStringLiteral("checkpoints/best.pt"));
    QDir().mkpath(QFileInfo(checkpoint).path());
    QFile weights(checkpoint);
    if (weights.open(QIODevice::WriteOnly))
        weights.write("weights v1");
    return checkpoint;
}

}  // namespace

class TestPredictionsDock : public QObject {
    Q_OBJECT

    static QListWidget* suspects(const PredictionsDock& dock)
    {
        return dock.findChild<QListWidget*>(QStringLiteral("suspectList"));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);  // the adaptation choice is kept in QSettings
        QCoreApplication::setOrganizationName(QStringLiteral("SegStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_PredictionsDock"));
        QSettings().clear();
    }

    // "Adapt the model when this project's images are of another kind" is the project's choice: on
    // by default, turned off for one project it stays off when that project is opened again
    // (another dock, as after a restart), and not for another project.
    void theAdaptationChoiceIsKeptPerProject()
    {
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath(QStringLiteral("a")));
        QDir().mkpath(dir.filePath(QStringLiteral("b")));
        auto dusk = segstudio::test::writeProject(dir.filePath(QStringLiteral("a")), {{"x.png", Split::Val, LabelStatus::Labelled, {0}, 0}});
        auto day = segstudio::test::writeProject(dir.filePath(QStringLiteral("b")), {{"y.png", Split::Val, LabelStatus::Labelled, {0}, 0}});
        segstudio::document::ProjectDocument duskDocument(dusk), dayDocument(day);
        {
            PredictionsDock dock;
            dock.setDocument(&duskDocument);
            auto* adapt = dock.findChild<QCheckBox*>(QStringLiteral("adaptToProject"));
            QVERIFY(adapt->isChecked());  // on by default: predict adapts only images of another kind
            QVERIFY(dock.service()->adapts());
            adapt->setChecked(false);
        }
        PredictionsDock dock;
        auto* adapt = dock.findChild<QCheckBox*>(QStringLiteral("adaptToProject"));
        dock.setDocument(&duskDocument);
        QVERIFY(!adapt->isChecked());
        QVERIFY(!dock.service()->adapts());
        dock.setDocument(&dayDocument);
        QVERIFY(adapt->isChecked());
        QVERIFY(dock.service()->adapts());
        dock.setDocument(&duskDocument);
        QVERIFY(!adapt->isChecked());
    }

    void predictsValidationImagesAndSetsTheirIoU()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(
            dir.path(), {{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                         {"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0},
                         {"gamma.png", Split::Val, LabelStatus::InProgress, {2}, 1},
                         {"delta.png", Split::Val, LabelStatus::Unlabelled, {}, 0}});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        const QString checkpoint = QDir(run).filePath(QStringLiteral("checkpoints/best.pt"));
        QDir().mkpath(QFileInfo(checkpoint).path());
        QFile weights(checkpoint);
        QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write("weights v1") > 0);
        weights.close();
        // The cache as the dock's default predictions leave it (adapting where the images differ).
        const data::PredictionCache cache(run.toStdString(), checkpoint.toStdString(),
                                          segstudio::ui::predictions::PredictionService::adaptationStamp(true));
        cache.prepare();
        const std::filesystem::path predictions = cache.folder();
        // beta predicted exactly; gamma all class 0 where the truth is class 2; delta has no truth.
        const cv::Mat sure(segstudio::test::kImageHeight, segstudio::test::kImageWidth, CV_8UC1, cv::Scalar(250));
        const auto writePrediction = [&](const std::string& key, const cv::Mat& classes) {
            data::writeLabelMap(cache.classesFile(key), classes, project.schema());
            data::writeImageGray(cache.confidenceFile(key), sure);
            data::writeImageGray(cache.entropyFile(key), sure * 0);
        };
        writePrediction("beta", segstudio::test::bandLabels({"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}));
        const cv::Mat allRoad(segstudio::test::kImageHeight, segstudio::test::kImageWidth, CV_8UC1, cv::Scalar(0));
        writePrediction("gamma", allRoad);

        const auto scores = data::scorePredictions(project, cache, project.indicesOf(Split::Val));
        QCOMPARE(scores.size(), std::size_t(3));
        QCOMPARE(*scores[0].iou, 1.0);
        QCOMPARE(*scores[0].boundaryF1, 1.0);
        QCOMPARE(scores[0].wrongPixels, std::int64_t(0));
        QCOMPARE(*scores[1].iou, 0.0);
        QCOMPARE(*scores[1].boundaryF1, 0.0);  // class 2 true, never predicted; class 0 the reverse
        const cv::Mat gammaTruth = segstudio::test::bandLabels({"gamma.png", Split::Val, LabelStatus::InProgress, {2}, 1});
        QCOMPARE(scores[1].wrongPixels, std::int64_t(cv::countNonZero(gammaTruth != data::kUnlabelled)));
        QCOMPARE(*scores[1].suspectFraction, 1.0);  // every labelled pixel of gamma disputed, surely
        QVERIFY(!scores[2].iou);
        QVERIFY(scores[2].problem.empty());
        std::filesystem::remove(predictions / "gamma.png");
        const auto missing = data::scorePredictions(project, cache, {2});
        QVERIFY(!missing[0].iou);
        QVERIFY(missing[0].problem.find("no prediction") != std::string::npos);
        writePrediction("gamma", allRoad);

        segstudio::document::ProjectDocument document(project);
        ImageListModel model;
        model.setDocument(&document);
        QVERIFY(!model.hasIoU());
        PredictionsDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        QObject::connect(&dock, &segstudio::ui::predictions::PredictionsDock::scoresChanged, &model,
                         &segstudio::ui::browser::ImageListModel::setPredictionScores);
        dock.setDocument(&document);
        QVERIFY(!dock.predictValidation());  // no run selected
        // Choosing a run whose predictions are on disk (from an earlier session) scores them: the
        // IoU column is back after a restart without predicting again (issue 9.18).
        QSignalSpy finished(&dock, &PredictionsDock::finished);
        dock.setRunDirectory(run);
        QCOMPARE(dock.checkpointFile(), checkpoint);
        QCOMPARE(dock.predictionsFolder(), QDir(run).filePath(QStringLiteral("predictions/best")));
        QVERIFY(finished.wait(60000));
        QVERIFY(model.hasIoU());
        QCOMPARE(model.data(model.index(1, 0), ImageListModel::IoURole).toDouble(), 1.0);
        // Another run without predictions clears them; back to this run, they return.
        dock.setRunDirectory(QDir(dir.path()).filePath(QStringLiteral("runs/none")));
        QVERIFY(!model.hasIoU());
        dock.setRunDirectory(run);
        QVERIFY(finished.wait(60000));
        QVERIFY(model.hasIoU());
        finished.clear();
        QVERIFY(dock.predictValidation());
        QVERIFY(dock.isBusy());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        QVERIFY(!dock.isBusy());

        QFile arguments(QDir(dir.path()).filePath(QStringLiteral("arguments.txt")));
        QVERIFY(arguments.open(QIODevice::ReadOnly));
        const QStringList args = QString::fromUtf8(arguments.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(args, (QStringList{QStringLiteral("predict"), QStringLiteral("-c"), checkpoint, QStringLiteral("-o"),
                                    dock.predictionsFolder(), QStringLiteral("-P"), QString::fromStdString(project.file().string()),
                                    QStringLiteral("-s"), QStringLiteral("val"), QStringLiteral("--confidence"),
                                    QStringLiteral("--no-overlay")} +
                        segstudio::ui::common::TrainerArguments::keptAdaptation()));  // adapting where the images differ, the default

        const auto iou = [&](int r) { return model.data(model.index(r, 0), ImageListModel::IoURole).toDouble(); };
        QVERIFY(model.hasIoU());
        QCOMPARE(iou(0), -1.0);  // train image: not predicted
        QCOMPARE(iou(1), 1.0);
        QCOMPARE(iou(2), 0.0);
        QCOMPARE(iou(3), -1.0);  // no label map
        QVERIFY2(dock.statusText().contains(QStringLiteral("0.500")), qPrintable(dock.statusText()));
        QCOMPARE(model.data(model.index(1, 0), ImageListModel::BoundaryF1Role).toDouble(), 1.0);

        // Suspect labels: gamma, surely disputed all over, and not beta, which the model agrees with;
        // a larger area threshold than any disagreement empties the list.
        QCOMPARE(suspects(dock)->count(), 1);
        QVERIFY2(suspects(dock)->item(0)->text().contains(QStringLiteral("gamma.png — 100.0 % disputed")),
                 qPrintable(suspects(dock)->item(0)->text()));
        QSignalSpy open(&dock, &PredictionsDock::openImageRequested);
        emit suspects(dock)->itemClicked(suspects(dock)->item(0));
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).at(0).value<std::size_t>(), std::size_t(2));

        // Training went on (best.pt rewritten, another size): the old model's scores are not
        // shown as the new one's, and none are computed (scoring would have started right away).
        QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write("weights v2, better") > 0);
        weights.close();
        finished.clear();
        dock.setRunDirectory(QDir(dir.path()).filePath(QStringLiteral("runs/none")));
        dock.setRunDirectory(run);
        QVERIFY(!model.hasIoU());
        QVERIFY(!dock.isBusy());
        QVERIFY(segstudio::document::workerPool()->waitForDone(60000));
        QCoreApplication::processEvents();
        QVERIFY(finished.isEmpty());
        QVERIFY(!model.hasIoU());
    }

    // A run before its first checkpoint (training just started): the editor asks for predictions
    // as images open; there is nothing to show and nothing wrong, so nothing is said or started.
    // Issue 27, item 11: a run selected while it trained (only last.pt), then finished (best.pt):
    // Predict with "Best" writes into predictions/best, where its scoring and the editor look (it
    // wrote into predictions/last, and every image then had "no prediction").
    void predictAfterTheRunFinishedWritesWhereItScores()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        QDir().mkpath(QDir(run).filePath(QStringLiteral("checkpoints")));
        const auto writeCheckpoint = [&](const char* name) {
            QFile file(QDir(run).filePath(QStringLiteral("checkpoints/") + QLatin1String(name)));
            QVERIFY(file.open(QIODevice::WriteOnly) && file.write("weights") > 0);
        };
        writeCheckpoint("last.pt");
        segstudio::document::ProjectDocument document(project);
        ImageListModel model;
        model.setDocument(&document);
        PredictionsDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        QObject::connect(&dock, &segstudio::ui::predictions::PredictionsDock::scoresChanged, &model,
                         &segstudio::ui::browser::ImageListModel::setPredictionScores);
        dock.setDocument(&document);
        dock.setRunDirectory(run);
        QVERIFY(dock.checkpointFile().endsWith(QStringLiteral("last.pt")));
        writeCheckpoint("best.pt");  // the training ended with a validation
        QVERIFY(dock.checkpointFile().endsWith(QStringLiteral("best.pt")));
        QCOMPARE(dock.predictionsFolder(), QDir(run).filePath(QStringLiteral("predictions/best")));
        QSignalSpy finished(&dock, &PredictionsDock::finished);
        QVERIFY(dock.predictValidation());
        QVERIFY(finished.wait(60000));
        QFile arguments(QDir(dir.path()).filePath(QStringLiteral("arguments.txt")));
        QVERIFY(arguments.open(QIODevice::ReadOnly));
        const QStringList args = QString::fromUtf8(arguments.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(args.value(args.indexOf(QStringLiteral("-c")) + 1), QDir(run).filePath(QStringLiteral("checkpoints/best.pt")));
        QCOMPARE(args.value(args.indexOf(QStringLiteral("-o")) + 1), QDir(run).filePath(QStringLiteral("predictions/best")));
        QCOMPARE(dock.service()->cacheFolder(), QDir(run).filePath(QStringLiteral("predictions/best")));
    }

    // "Adapt the model when this project's images are of another kind": each prediction job asks
    // predict to (--adapt-norm auto --adapt-split all --adapt-images 16) and the cache's stamp says so,
    // so the trained model's predictions there go; Evaluate scores the model as trained and keeps
    // out of that cache; unchecked, the next job predicts as trained again.
    void adaptingToTheProjectPredictsTheOtherWay()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        const QString checkpoint = writeBestCheckpoint(run);
        QVERIFY(QFileInfo(checkpoint).size() > 0);
        segstudio::document::ProjectDocument document(project);
        PredictionsDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setDocument(&document);
        dock.setRunDirectory(run);
        const auto lastArguments = [&] {
            QFile arguments(QDir(dir.path()).filePath(QStringLiteral("arguments.txt")));
            return arguments.open(QIODevice::ReadOnly)
                       ? QString::fromUtf8(arguments.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                       : QStringList();
        };
        const data::PredictionCache cache(run.toStdString(), checkpoint.toStdString());
        const QStringList adaptation = segstudio::ui::common::TrainerArguments::keptAdaptation();

        auto* adapt = dock.findChild<QCheckBox*>(QStringLiteral("adaptToProject"));
        QVERIFY(adapt && adapt->isChecked());  // the default
        QVERIFY(dock.service()->adapts());
        // What the gate decided is said with the job's result.
        qputenv("FAKE_ADAPT_SAYS", "adapted the batch norms to 16 of the images (weight 1, shift 0.664886)");
        QVERIFY(dock.predictValidation());
        QVERIFY(!adapt->isEnabled());  // a job's predictions are of the way it began
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isBusy(), 60000);
        QVERIFY(adapt->isEnabled());
        QVERIFY2(dock.statusText().contains(QStringLiteral("adapted to this project's images")) &&
                     dock.statusText().contains(QStringLiteral("(shift 0.66)")),
                 qPrintable(dock.statusText()));
        qputenv("FAKE_ADAPT_SAYS", "the batch norms as trained: the shift of 16 of the images, 0.155321, is at most --adapt-shift 0.55");
        QVERIFY(dock.predictValidation());
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isBusy(), 60000);
        QVERIFY2(dock.statusText().contains(QStringLiteral("Predicted as trained: this project's images are of its training "
                                                           "images' kind (shift 0.16, at most 0.55)")),
                 qPrintable(dock.statusText()));
        qunsetenv("FAKE_ADAPT_SAYS");
        QStringList args = lastArguments();
        QCOMPARE(args.mid(args.size() - adaptation.size()), adaptation);
        QCOMPARE(cache.adaptationInUse(), segstudio::ui::predictions::PredictionService::adaptationStamp(true));
        QVERIFY(!cache.adaptationInUse().empty());

        QVERIFY(dock.evaluate());
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isBusy(), 60000);
        args = lastArguments();
        QCOMPARE(args.value(0), QStringLiteral("evaluate"));
        QVERIFY(!args.contains(QStringLiteral("--predictions")));

        adapt->setChecked(false);
        QVERIFY(!dock.service()->adapts());
        QVERIFY(dock.predictValidation());
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isBusy(), 60000);
        args = lastArguments();
        QCOMPARE(args.value(0), QStringLiteral("predict"));
        QVERIFY(!args.contains(QStringLiteral("--adapt-norm")));
        QCOMPARE(cache.adaptationInUse(), std::string());
        QVERIFY2(!dock.statusText().contains(QStringLiteral("Predicted")), qPrintable(dock.statusText()));
    }

    // The editor's prediction of the image on screen says what the gate decided when its process
    // ends (for the status bar); with the adaptation off, predict is not asked to adapt and
    // nothing is said.
    void theEditorsPredictionSaysTheGatesDecision()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        QVERIFY(QFileInfo(writeBestCheckpoint(run)).size() > 0);
        segstudio::document::ProjectDocument document(project);
        PredictionsDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setDocument(&document);
        dock.setRunDirectory(run);
        QSignalSpy said(&dock, &PredictionsDock::predictionSaid);
        qputenv("FAKE_ADAPT_SAYS", "adapted the batch norms to 16 of the images (weight 1, shift 0.664886), as kept in x");
        dock.requestPrediction(0);
        QVERIFY(said.wait(60000));
        QCOMPARE(said.last().at(0).toString(), QStringLiteral("Predicted with the model adapted to this project's images: "
                                                              "they differ from its training images (shift 0.66)."));
        qunsetenv("FAKE_ADAPT_SAYS");
        const int before = int(said.size());
        QFile arguments(QDir(dir.path()).filePath(QStringLiteral("arguments.txt")));
        QVERIFY(arguments.remove());
        dock.findChild<QCheckBox*>(QStringLiteral("adaptToProject"))->setChecked(false);  // predicted again, as trained
        QTRY_VERIFY_WITH_TIMEOUT(arguments.exists() && !dock.service()->isPredicting(), 60000);
        QVERIFY(arguments.open(QIODevice::ReadOnly));
        QVERIFY(!QString::fromUtf8(arguments.readAll()).contains(QStringLiteral("--adapt-norm")));
        QCOMPARE(int(said.size()), before);
    }

    // Adaptation asked for while the editor's prediction of the image on screen is under way
    // applies when that prediction is done: its answer (of the trained model) is not kept as an
    // adapted one, and the image is predicted again, adapted.
    void adaptationAskedMidPredictionAppliesAfterIt()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        const QString checkpoint = writeBestCheckpoint(run);
        QVERIFY(QFileInfo(checkpoint).size() > 0);
        // A stand-in that appends its arguments as one line and waits for the test's word.
        const QString trainer = QDir(dir.path()).filePath(QStringLiteral("slow-train"));
        QFile script(trainer);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nd=\"$(dirname \"$0\")\"\necho \"$*\" >> \"$d/calls.txt\"\n"
                     "while [ ! -e \"$d/go\" ]; do sleep 0.02; done\n");
        script.close();
        QFile::setPermissions(trainer, QFile::permissions(trainer) | QFileDevice::ExeOwner);
        const auto calls = [&] {
            QFile file(QDir(dir.path()).filePath(QStringLiteral("calls.txt")));
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                                                  : QStringList();
        };

        segstudio::ui::predictions::PredictionService service;
        service.setTrainer(trainer);
        service.setProject(&project);
        service.setCheckpoint(run, checkpoint);
        service.request(0);
        QTRY_VERIFY_WITH_TIMEOUT(calls().size() == 1, 60000);
        QVERIFY(service.isPredicting());
        QVERIFY(!calls().at(0).contains(QStringLiteral("--adapt-norm")));
        service.setAdaptation(true);
        QVERIFY(service.adapts());
        const data::PredictionCache cache(run.toStdString(), checkpoint.toStdString());
        QCOMPARE(cache.adaptationInUse(), std::string());  // nothing switched under the running prediction
        QFile go(QDir(dir.path()).filePath(QStringLiteral("go")));
        QVERIFY(go.open(QIODevice::WriteOnly));
        go.close();
        QTRY_VERIFY_WITH_TIMEOUT(calls().size() == 2, 60000);
        QVERIFY(calls().at(1).contains(segstudio::ui::common::TrainerArguments::keptAdaptation().join(QLatin1Char(' '))));
        QCOMPARE(cache.adaptationInUse(), segstudio::ui::predictions::PredictionService::adaptationStamp(true));
        QTRY_VERIFY_WITH_TIMEOUT(!service.isPredicting(), 60000);
    }

    // Issue 47.14: the evaluation report was gone after the project was reopened; it is kept
    // with the run (evaluation/<checkpoint>/report.json) and comes back when the run is chosen.
    void aSavedEvaluationReportComesBackWithItsRun()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        QDir().mkpath(QDir(run).filePath(QStringLiteral("checkpoints")));
        QFile weights(QDir(run).filePath(QStringLiteral("checkpoints/best.pt")));
        QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write("weights") > 0);
        weights.close();
        segstudio::metrics::EvaluationReport report({"road", "car", "sky"});
        const std::vector<std::uint8_t> truth{0, 0, 1, 1}, predicted{0, 1, 1, 1};
        report.addImage("beta", truth.data(), predicted.data(), 2, 2);
        segstudio::metrics::writeEvaluationReport(report, QDir(run).filePath(QStringLiteral("evaluation/best")).toStdString());

        segstudio::document::ProjectDocument document(project);
        PredictionsDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setDocument(&document);
        QVERIFY(!dock.reportView()->report());
        QSignalSpy restored(&dock, &PredictionsDock::reportRestored);
        QSignalSpy shown(&dock, &PredictionsDock::reportShown);
        dock.setRunDirectory(run);
        QVERIFY(restored.wait(60000));
        QVERIFY(dock.reportView()->report());
        QVERIFY(dock.reportView()->report()->toJson() == report.toJson());
        QVERIFY(shown.isEmpty());  // in the view, not popped up
    }

    void aRunWithoutCheckpointIsQuiet()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"a.png", Split::Val, LabelStatus::Labelled, {0}, 0}});
        segstudio::ui::predictions::PredictionService service;
        service.setTrainer(writeFakeTrainer(dir.path()));
        service.setProject(&project);
        const QString run = dir.filePath(QStringLiteral("runs/new"));
        service.setCheckpoint(run, run + QStringLiteral("/checkpoints/best.pt"));
        QSignalSpy problems(&service, &segstudio::ui::predictions::PredictionService::problem);
        service.request(0);
        // The check for the checkpoint runs on a worker: wait for it, then for its answer.
        QVERIFY(segstudio::document::workerPool()->waitForDone(60000));
        QCoreApplication::processEvents();
        QVERIFY(problems.isEmpty());
        QVERIFY(!service.isPredicting());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("arguments.txt"))));  // the trainer was never run
    }

    // Issue 50, section 4: before Predict (the cache holds only what the editor showed) the panel
    // said "No labelled validation image to score." of a project with many; it says to predict
    // first, and how many there are. An empty suspect list says why: nothing disputed that
    // surely, or how close the nearest image came.
    void beforePredictThePanelSaysSoAndAnEmptySuspectListSaysWhy()
    {
        QTemporaryDir dir;
        const segstudio::test::ImageSpec alpha{"alpha.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0};
        const segstudio::test::ImageSpec beta{"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0};
        const segstudio::test::ImageSpec gamma{"gamma.png", Split::Val, LabelStatus::Labelled, {2}, 0};
        auto project = segstudio::test::writeProject(dir.path(), {alpha, beta, gamma});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        const QString checkpoint = QDir(run).filePath(QStringLiteral("checkpoints/best.pt"));
        QDir().mkpath(QFileInfo(checkpoint).path());
        QFile weights(checkpoint);
        QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write("weights") > 0);
        weights.close();
        const data::PredictionCache cache(run.toStdString(), checkpoint.toStdString());
        cache.prepare();
        const cv::Mat sure(segstudio::test::kImageHeight, segstudio::test::kImageWidth, CV_8UC1, cv::Scalar(250));
        const auto writePrediction = [&](const std::string& key, const cv::Mat& classes) {
            data::writeLabelMap(cache.classesFile(key), classes, project.schema());
            data::writeImageGray(cache.confidenceFile(key), sure);
            data::writeImageGray(cache.entropyFile(key), sure * 0);
        };
        writePrediction("alpha", segstudio::test::bandLabels(alpha));  // the training image the editor showed

        segstudio::document::ProjectDocument document(project);
        PredictionsDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setDocument(&document);
        QSignalSpy finished(&dock, &PredictionsDock::finished);
        dock.setRunDirectory(run);
        QVERIFY(finished.wait(60000));
        QVERIFY2(dock.statusText().contains(QStringLiteral("Predict first")) &&
                     dock.statusText().contains(QStringLiteral("2 labelled validation image(s)")),
                 qPrintable(dock.statusText()));

        // Both predicted as labelled: nothing disputed, and the panel says so.
        writePrediction("beta", segstudio::test::bandLabels(beta));
        writePrediction("gamma", segstudio::test::bandLabels(gamma));
        auto* summary = dock.findChild<QLabel*>(QStringLiteral("suspectSummary"));
        QVERIFY(summary);
        finished.clear();
        dock.setSuspectThresholds(95, 5.0);  // a new confidence scores again
        QVERIFY(finished.wait(60000));
        QVERIFY2(dock.statusText().contains(QStringLiteral("Mean IoU")), qPrintable(dock.statusText()));
        QCOMPARE(suspects(dock)->count(), 0);
        QVERIFY2(summary->text().contains(QStringLiteral("No labelled pixel is disputed at ≥ 95 % sure")),
                 qPrintable(summary->text()));

        // gamma's first row predicted road, surely: 40 of its 1200 labelled pixels (3.3 %), below
        // the 5 % asked for; the panel names it as the closest.
        cv::Mat gammaPredicted = segstudio::test::bandLabels(gamma);
        gammaPredicted.row(0).setTo(0);
        writePrediction("gamma", gammaPredicted);
        finished.clear();
        dock.setSuspectThresholds(90, 5.0);
        QVERIFY(finished.wait(60000));
        QCOMPARE(suspects(dock)->count(), 0);
        QVERIFY2(summary->text().contains(QStringLiteral("the closest is")) &&
                     summary->text().contains(QStringLiteral("gamma.png")) && summary->text().contains(QStringLiteral("3.3 %")),
                 qPrintable(summary->text()));
        dock.setSuspectThresholds(90, 3.0);  // the area only filters the list again
        QCOMPARE(suspects(dock)->count(), 1);
        QVERIFY(summary->text().isEmpty());
    }

    // Issue 50, section 4: the GUI's ONNX export (File > Export) runs segstudio-train export-model
    // on the selected run's checkpoint with the project's colours, and says how it went: the
    // trainer's summary, or its own error line.
    void exportsTheModelThroughTheTrainer()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}});
        const QString run = QDir(dir.path()).filePath(QStringLiteral("runs/r1"));
        const QString checkpoint = QDir(run).filePath(QStringLiteral("checkpoints/best.pt"));
        QDir().mkpath(QFileInfo(checkpoint).path());
        QFile weights(checkpoint);
        QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write("weights") > 0);
        weights.close();
        // Stand-ins for export-model: one records its arguments and succeeds, one fails as the
        // trainer does, with its error line on stderr.
        const auto writeExporter = [&dir](const char* name, const char* body) {
            const QString file = QDir(dir.path()).filePath(QLatin1String(name));
            QFile out(file);
            if (!out.open(QIODevice::WriteOnly))
                return QString();
            out.write("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > \"$(dirname \"$0\")/export-arguments.txt\"\n");
            out.write(body);
            out.close();
            QFile::setPermissions(file, QFile::permissions(file) | QFileDevice::ExeOwner);
            return file;
        };
        const QString succeeds = writeExporter("export-ok", "echo \"wrote $5: tiny, 12 nodes, input 30x40, 3 classes\"\n");
        const QString fails = writeExporter("export-fails", "echo \"segstudio-train: $3: not a checkpoint\" >&2\nexit 1\n");

        segstudio::document::ProjectDocument document(project);
        PredictionsDock dock;
        dock.setTrainer(succeeds);
        dock.setDocument(&document);
        QVERIFY(!dock.exportModelAction()->isEnabled());  // no run yet
        QVERIFY(!dock.exportModel(dir.filePath(QStringLiteral("r1.onnx"))));
        dock.setRunDirectory(run);
        QVERIFY(dock.exportModelAction()->isEnabled());

        QSignalSpy exported(&dock, &PredictionsDock::modelExported);
        const QString onnx = dir.filePath(QStringLiteral("r1.onnx"));
        QVERIFY(dock.exportModel(onnx));
        QVERIFY(exported.wait(60000));
        QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(1).toString()));
        QVERIFY2(exported.at(0).at(1).toString().contains(QStringLiteral("wrote ") + onnx),
                 qPrintable(exported.at(0).at(1).toString()));
        QFile arguments(QDir(dir.path()).filePath(QStringLiteral("export-arguments.txt")));
        QVERIFY(arguments.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(arguments.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 (QStringList{QStringLiteral("export-model"), QStringLiteral("-c"), checkpoint, QStringLiteral("-o"), onnx,
                              QStringLiteral("-P"), QString::fromStdString(project.file().string())}));

        dock.setTrainer(fails);
        QVERIFY(dock.exportModel(onnx));
        QVERIFY(exported.wait(60000));
        QVERIFY(!exported.at(1).at(0).toBool());
        QVERIFY2(exported.at(1).at(1).toString().contains(checkpoint + QStringLiteral(": not a checkpoint")),
                 qPrintable(exported.at(1).at(1).toString()));
        QVERIFY2(dock.statusText().contains(QStringLiteral("not a checkpoint")), qPrintable(dock.statusText()));
        QVERIFY(dock.exportModelAction()->isEnabled());
    }

    // Issue 60.11: an ONNX export of a run still training gave no warning (it takes the best
    // checkpoint so far). Said from the run's own metrics, and not once the run has ended.
    void exportingARunStillTrainingWarns()
    {
        QTemporaryDir dir;
        const QString run = dir.path();
        QVERIFY(ModelExporter::stillTrainingWarning(run).isEmpty());  // no metrics: nothing to say
        QFile metrics(QDir(run).filePath(QStringLiteral("metrics.jsonl")));
        QVERIFY(metrics.open(QIODevice::WriteOnly));
        metrics.write("{\"kind\":\"run\",\"epoch\":0,\"iteration\":0,\"segstudio_version\":\"t\",\"model\":\"m\",\"epochs\":10,"
                      "\"iterations_per_epoch\":5,\"total_iterations\":50}\n"
                      "{\"kind\":\"val\",\"epoch\":3,\"iteration\":15,\"loss\":1.0,\"accuracy\":0.5,\"mean_iou\":0.42}\n");
        metrics.close();
        const QString warning = ModelExporter::stillTrainingWarning(run);
        QVERIFY2(warning.contains(QStringLiteral("is still training (epoch 3 of 10)")) &&
                     warning.contains(QStringLiteral("val mIoU 0.420 at epoch 3")),
                 qPrintable(warning));
        QVERIFY(metrics.open(QIODevice::Append));
        metrics.write("{\"kind\":\"state\",\"epoch\":10,\"iteration\":50,\"state\":\"finished\"}\n");
        metrics.close();
        QVERIFY(ModelExporter::stillTrainingWarning(run).isEmpty());
    }

    // Issue 62.1: with no run's model in use, strokes on the open image teach a pixel classifier,
    // whose prediction of the image comes as a run's would (with scores for Smart Click); the
    // labelled images of the project teach it too. With a run in use, it stays quiet.
    void learnsFromStrokesWhileNoRunIsInUse()
    {
        QTemporaryDir dir;
        auto project = segstudio::test::writeProject(dir.path(), {{"alpha.png", Split::Train, LabelStatus::InProgress, {}, 0},
                                                                  {"beta.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        // Two kinds of surface: a dark grainy top (road, 0) and a bright smooth bottom (sky, 2).
        cv::Mat truth(120, 160, CV_8UC1, cv::Scalar(2));
        truth.rowRange(0, 60).setTo(0);
        for (std::size_t i = 0; i < 2; ++i) {
            cv::Mat grey(120, 160, CV_8UC1), noise(120, 160, CV_8UC1);
            cv::randn(noise, 0, 12);
            grey.rowRange(0, 60).setTo(60);
            grey.rowRange(60, 120).setTo(190);
            grey.rowRange(0, 60) += noise.rowRange(0, 60);
            cv::Mat rgb;
            cv::cvtColor(grey, rgb, cv::COLOR_GRAY2RGB);
            segstudio::data::writeImageRgb(project.imagePath(i), rgb);
        }
        segstudio::document::ProjectDocument document(project);
        PredictionsDock dock;
        dock.setDocument(&document);
        QSignalSpy ready(&dock, &PredictionsDock::predictionReady);
        QSignalSpy status(&dock, &PredictionsDock::liveClassifierStatus);
        cv::Mat strokes(120, 160, CV_8UC1, cv::Scalar(segstudio::data::kUnlabelled));
        cv::line(strokes, {10, 20}, {150, 20}, cv::Scalar(0), 3);
        cv::line(strokes, {10, 100}, {150, 100}, cv::Scalar(2), 3);
        dock.labelsChanged(0, strokes);
        QVERIFY(ready.wait(60000));
        QCOMPARE(ready.last().at(0).value<std::size_t>(), std::size_t(0));
        const auto entry = ready.last().at(1).value<segstudio::data::PredictionCache::Entry>();
        QCOMPARE(entry.classes.size(), truth.size());
        QVERIFY(double(cv::countNonZero(entry.classes == truth)) / double(truth.total()) > 0.95);
        QCOMPARE(entry.scores.channels(), 3);
        QVERIFY2(status.last().at(0).toString().startsWith(QStringLiteral("Learning from your strokes:")),
                 qPrintable(status.last().at(0).toString()));
        // The other image, never labelled, predicted from what the strokes taught.
        dock.requestPrediction(1);
        QVERIFY(ready.wait(60000));
        QCOMPARE(ready.last().at(0).value<std::size_t>(), std::size_t(1));
        const auto other = ready.last().at(1).value<segstudio::data::PredictionCache::Entry>();
        QVERIFY(double(cv::countNonZero(other.classes == truth)) / double(truth.total()) > 0.95);
        // A run's model in use: the classifier neither learns nor predicts.
        const int before = int(ready.size());
        dock.setRunDirectory(QDir(dir.path()).filePath(QStringLiteral("runs/r1")));
        dock.labelsChanged(0, strokes);
        QVERIFY(!dock.findChild<segstudio::ui::predictions::LiveClassifier*>(QStringLiteral("liveClassifier"))->isBusy());
        QCOMPARE(int(ready.size()), before);
    }
};

QTEST_MAIN(TestPredictionsDock)
#include "test_PredictionsDock.moc"
