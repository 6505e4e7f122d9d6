#include "UiTestProject.h"

#include "app/ImageListModel.h"
#include "app/PredictionsDock.h"
#include "data/DataError.h"
#include "data/PredictionIoU.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::ImageListModel;
using segstudio::ui::PredictionsDock;
namespace data = segstudio::data;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

cv::Mat row(const std::vector<int>& values)
{
    cv::Mat mat(1, int(values.size()), CV_8UC1);
    for (std::size_t i = 0; i < values.size(); ++i)
        mat.at<std::uint8_t>(0, int(i)) = std::uint8_t(values[i]);
    return mat;
}

// A stand-in for segstudio-train: records its arguments, one per line, and succeeds.
QString writeFakeTrainer(const QString& dir)
{
    const QString file = QDir(dir).filePath(QStringLiteral("fake-train"));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > \"$(dirname \"$0\")/arguments.txt\"\necho predicted\n");
    out.close();
    QFile::setPermissions(file, QFile::permissions(file) | QFileDevice::ExeOwner);
    return file;
}

}  // namespace

class TestPredictionsDock : public QObject {
    Q_OBJECT

private slots:
    // core/data's per-image IoU (a pure function; tested here with the panel that uses it).
    void meanIoUOfPresentClasses_data()
    {
        QTest::addColumn<std::vector<int>>("predicted");
        QTest::addColumn<std::vector<int>>("truth");
        QTest::addColumn<double>("iou");  // -1 = none
        QTest::newRow("perfect") << std::vector<int>{0, 1, 2} << std::vector<int>{0, 1, 2} << 1.0;
        QTest::newRow("all wrong") << std::vector<int>{1, 0} << std::vector<int>{0, 1} << 0.0;
        // class 0: I 1, U 2; class 1: I 2, U 3.
        QTest::newRow("partial") << std::vector<int>{0, 1, 1, 1} << std::vector<int>{0, 0, 1, 1} << (0.5 + 2.0 / 3.0) / 2;
        QTest::newRow("unlabelled ignored") << std::vector<int>{0, 1} << std::vector<int>{0, 255} << 1.0;
        // class 2 is absent from the truth: its false positive lowers class 0's IoU, not the mean's count.
        QTest::newRow("absent class predicted") << std::vector<int>{0, 2} << std::vector<int>{0, 0} << 0.5;
        QTest::newRow("nothing labelled") << std::vector<int>{0, 1} << std::vector<int>{255, 255} << -1.0;
    }

    void meanIoUOfPresentClasses()
    {
        QFETCH(std::vector<int>, predicted);
        QFETCH(std::vector<int>, truth);
        QFETCH(double, iou);
        const auto result = data::meanIoUOfPresentClasses(row(predicted), row(truth));
        if (iou < 0) {
            QVERIFY(!result);
        } else {
            QVERIFY(result);
            QVERIFY2(std::abs(*result - iou) < 1e-12, qPrintable(QString::number(*result)));
        }
    }

    void meanIoURefusesDifferentSizes()
    {
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::meanIoUOfPresentClasses(row({0, 1}), row({0, 1, 2})));
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
        const std::filesystem::path predictions = QDir(run).filePath(QStringLiteral("predictions")).toStdString();
        std::filesystem::create_directories(predictions);
        // beta predicted exactly; gamma all class 0 where the truth is class 2; delta has no truth.
        data::writeLabelMap(predictions / "beta.png", segstudio::test::bandLabels({"beta.png", Split::Val, LabelStatus::Labelled, {0, 1}, 0}),
                            project.schema());
        data::writeLabelMap(predictions / "gamma.png",
                            cv::Mat(segstudio::test::kImageHeight, segstudio::test::kImageWidth, CV_8UC1, cv::Scalar(0)),
                            project.schema());

        const auto scores = data::scorePredictions(project, predictions, project.indicesOf(Split::Val));
        QCOMPARE(scores.size(), std::size_t(3));
        QCOMPARE(*scores[0].iou, 1.0);
        QCOMPARE(*scores[1].iou, 0.0);
        QVERIFY(!scores[2].iou);
        QVERIFY(scores[2].problem.empty());
        std::filesystem::remove(predictions / "gamma.png");
        const auto missing = data::scorePredictions(project, predictions, {2});
        QVERIFY(!missing[0].iou);
        QVERIFY(missing[0].problem.find("no prediction") != std::string::npos);
        data::writeLabelMap(predictions / "gamma.png",
                            cv::Mat(segstudio::test::kImageHeight, segstudio::test::kImageWidth, CV_8UC1, cv::Scalar(0)),
                            project.schema());

        ImageListModel model;
        model.setProject(&project);
        QVERIFY(!model.hasIoU());
        PredictionsDock dock;
        dock.setTrainer(writeFakeTrainer(dir.path()));
        dock.setProject(&project, &model);
        QVERIFY(!dock.predictValidation());  // no run selected
        dock.setRunDirectory(run);
        QCOMPARE(dock.predictionsFolder(), QDir(run).filePath(QStringLiteral("predictions")));
        QSignalSpy finished(&dock, &PredictionsDock::finished);
        QVERIFY(dock.predictValidation());
        QVERIFY(dock.isBusy());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        QVERIFY(!dock.isBusy());

        QFile arguments(QDir(dir.path()).filePath(QStringLiteral("arguments.txt")));
        QVERIFY(arguments.open(QIODevice::ReadOnly));
        const QStringList args = QString::fromUtf8(arguments.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(args.mid(0, 7), (QStringList{QStringLiteral("predict"), QStringLiteral("-c"), run, QStringLiteral("-o"),
                                              dock.predictionsFolder(), QStringLiteral("-P"),
                                              QString::fromStdString(project.file().string())}));
        QCOMPARE(args.size(), 7 + 3);  // the three val images
        QVERIFY(args.last().endsWith(QStringLiteral("delta.png")));

        const auto iou = [&](int r) { return model.data(model.index(r, 0), ImageListModel::IoURole).toDouble(); };
        QVERIFY(model.hasIoU());
        QCOMPARE(iou(0), -1.0);  // train image: not predicted
        QCOMPARE(iou(1), 1.0);
        QCOMPARE(iou(2), 0.0);
        QCOMPARE(iou(3), -1.0);  // no label map
        QVERIFY2(dock.statusText().contains(QStringLiteral("0.500")), qPrintable(dock.statusText()));
    }
};

QTEST_MAIN(TestPredictionsDock)
#include "test_PredictionsDock.moc"
