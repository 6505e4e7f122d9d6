#include "TwoImageReport.h"
#include "metrics/EvaluationReport.h"
#include "metrics/EvaluationReportFiles.h"
#include "run/FileError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

#include <cmath>
#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using segstudio::metrics::EvaluationReport;

namespace {
bool near(double a, double b) { return std::abs(a - b) < 1e-12; }
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || near(a, b); }
}  // namespace

// evaluateSemanticSegmentation's report over two constructed images, by hand.
class TestEvaluationReport : public QObject {
    Q_OBJECT

    // Image a (2x2): perfect on sky/road. Image b (2x2): road predicted as car once, one pixel
    // unlabelled, no sky.
    static EvaluationReport twoImages() { return segstudio::test::twoImageReport(); }

private slots:
    void datasetAndClassMetrics()
    {
        const auto report = twoImages();
        // Summed confusion: sky 2->sky; road 3 right, 1 -> car; car 1 right.
        QCOMPARE(report.confusion().counts(), (std::vector<std::int64_t>{2, 0, 0, 0, 3, 1, 0, 0, 1}));
        const auto m = report.metrics();
        QVERIFY(near(m.globalAccuracy, 6.0 / 7.0));
        QVERIFY(near(m.classIoU[1], 3.0 / 4.0));
        QVERIFY(near(m.classIoU[2], 1.0 / 2.0));
        QVERIFY(near(m.meanIoU, (1.0 + 0.75 + 0.5) / 3.0));
        QVERIFY(near(m.meanClassAccuracy, (1.0 + 0.75 + 1.0) / 3.0));
        QCOMPARE(report.images().size(), std::size_t(2));
        QCOMPARE(report.images()[1].wrongPixels, std::int64_t(1));
        QCOMPARE(report.images()[1].labelledPixels, std::int64_t(3));
        // BF on 2x2 maps with a tolerance of 0.0075 * diagonal (< 1 px): image a matches exactly
        // (sky and road 1 each); in b, road's boundary is (0,0),(1,0) in the truth and (0,0)
        // in the prediction: P = 1, R = 1/2, BF = 2/3; car: truth (0,1), prediction (1,0),(0,1):
        // P = 1/2, R = 1, BF = 2/3.
        QVERIFY(near(report.images()[0].meanBoundaryF1, 1.0));
        QVERIFY(near(report.images()[1].meanBoundaryF1, 2.0 / 3.0));
        QVERIFY(near(report.meanBoundaryF1(), (1.0 + 2.0 / 3.0) / 2.0));
        const auto classBF = report.classMeanBoundaryF1();
        QVERIFY(near(classBF[0], 1.0));                    // sky: image a only
        QVERIFY(near(classBF[1], (1.0 + 2.0 / 3.0) / 2));  // road: both
        QVERIFY(near(classBF[2], 2.0 / 3.0));              // car: image b only
    }

    void jsonRoundTrip()
    {
        auto report = twoImages();
        report.context()["checkpoint"] = "runs/a/checkpoints/best.pt";
        const auto json = report.toJson();
        QVERIFY(json.at("images").at(1).at("global_accuracy").is_number());
        const auto back = EvaluationReport::fromJson(nlohmann::json::parse(json.dump()));
        QCOMPARE(back.classNames(), report.classNames());
        QCOMPARE(back.confusion().counts(), report.confusion().counts());
        QVERIFY(same(back.meanBoundaryF1(), report.meanBoundaryF1()));
        for (std::size_t c = 0; c < 3; ++c)
            QVERIFY(same(back.classMeanBoundaryF1()[c], report.classMeanBoundaryF1()[c]));
        QCOMPARE(back.images().size(), report.images().size());
        QCOMPARE(back.context().at("checkpoint").get<std::string>(), std::string("runs/a/checkpoints/best.pt"));
        QCOMPARE(back.toJson(), json);
    }

    void undefinedScoresAreNullAndEmpty()
    {
        EvaluationReport report({"sky", "road"});
        const std::uint8_t truth[] = {255, 255}, predicted[] = {0, 0};
        report.addImage("void.png", truth, predicted, 2, 1);
        QVERIFY(report.toJson().at("images").at(0).at("mean_iou").is_null());
        QVERIFY(report.toJson().at("classes").at(0).at("iou").is_null());
        QCOMPARE(QString::fromStdString(report.imagesCsv()).split('\n').at(1), QStringLiteral("void.png,0,0,,,"));
    }

    void csvTables()
    {
        const auto report = twoImages();
        const QStringList classes = QString::fromStdString(report.classesCsv()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(classes.size(), 4);
        QCOMPARE(classes[0], QStringLiteral("class,accuracy,iou,mean_bf_score"));
        QCOMPARE(classes[2], QStringLiteral("road,0.75,0.75,0.833333"));
        const QStringList confusion = QString::fromStdString(report.confusionCsv()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(confusion[0], QStringLiteral("truth\\predicted,sky,road,car"));
        QCOMPARE(confusion[2], QStringLiteral("road,0,3,1"));
    }

    void filesRoundTripAndBadFilesAreNamed()
    {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.filePath(QStringLiteral("report")).toStdString();
        const auto report = twoImages();
        segstudio::metrics::writeEvaluationReport(report, folder);
        for (const char* name : {"report.json", "classes.csv", "images.csv", "confusion.csv"})
            QVERIFY2(std::filesystem::file_size(folder / name) > 0, name);
        QCOMPARE(segstudio::metrics::readEvaluationReport(folder / "report.json").toJson(), report.toJson());
        try {
            (void)segstudio::metrics::readEvaluationReport(folder / "classes.csv");
            QFAIL("read a CSV file as a report");
        } catch (const segstudio::run::FileError& error) {
            QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString((folder / "classes.csv").string()));
        }
    }

    // A write that fails part way (the file-size limit makes it fail as a full disk does, for
    // root too): no half report and no empty folder are left behind.
    void aFailedWriteLeavesNoFolderBehind()
    {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.filePath(QStringLiteral("new/report")).toStdString();
        const auto report = twoImages();
        const pid_t child = fork();
        if (child == 0) {
            std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead of killing us
            const rlimit limit{200, 200};
            ::setrlimit(RLIMIT_FSIZE, &limit);
            try {
                segstudio::metrics::writeEvaluationReport(report, folder);
            } catch (const segstudio::run::FileError&) {
                _exit(0);
            }
            _exit(1);
        }
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY(!std::filesystem::exists(folder));
    }

    void malformedJsonNamesWhatIsWrong()
    {
        auto json = twoImages().toJson();
        json["confusion"].erase(1);
        try {
            (void)EvaluationReport::fromJson(json);
            QFAIL("accepted a confusion matrix with a missing row");
        } catch (const std::invalid_argument& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("confusion")), error.what());
        }
        json.erase("classes");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, EvaluationReport::fromJson(json));
    }
};

QTEST_GUILESS_MAIN(TestEvaluationReport)
#include "test_EvaluationReport.moc"
