#include "TestPacks.h"
#include "TrainerProcess.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>

namespace fs = std::filesystem;

// segstudio-train as a user runs it: a bad pack is refused with its name, SIGINT writes a
// checkpoint and --resume finishes the run, demo trains end to end.
class TestTrainCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void refusesBadPackNamingIt();
    void sigintCheckpointsAndResumeFinishes();
    void demoRunsEndToEnd();
    void evaluateWritesTheReport();
    void versionAnswersWithoutASubcommand();
    void modelsAndDevicesAsJson();
    void fullDiskFailsWithTheReason();
    void summaryNamesTheClasses();

private:
    QProcess* start(const QStringList& arguments);
    QString path(const QString& name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
};

void TestTrainCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(SEGSTUDIO_TRAIN_EXE)));
    segstudio::enginetest::writeStripePack(path(QStringLiteral("train.pack")).toStdString(), 8, 32, 32, 4, 1);
}

QProcess* TestTrainCli::start(const QStringList& arguments)
{
    return segstudio::enginetest::startTrainer(this, QStringLiteral(SEGSTUDIO_TRAIN_EXE), arguments);
}

void TestTrainCli::refusesBadPackNamingIt()
{
    const QString bad = path(QStringLiteral("bad.pack"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(5000, 'x'));
    file.close();
    auto* process = start({QStringLiteral("train"), QStringLiteral("--train-pack"), bad, QStringLiteral("-o"),
                           path(QStringLiteral("bad-run")), QStringLiteral("--device"), QStringLiteral("cpu")});
    QVERIFY(process->waitForFinished(60000));
    const QString output = QString::fromUtf8(process->readAll());
    QCOMPARE(process->exitCode(), 1);
    QVERIFY2(output.contains(bad) && output.contains(QStringLiteral("magic")), qPrintable(output));
}

void TestTrainCli::sigintCheckpointsAndResumeFinishes()
{
    const QString run = path(QStringLiteral("sigint-run"));
    auto* process = start({QStringLiteral("train"), QStringLiteral("--train-pack"), path(QStringLiteral("train.pack")),
                           QStringLiteral("-o"), run, QStringLiteral("--epochs"), QStringLiteral("100000"),
                           QStringLiteral("--log-interval"), QStringLiteral("1"), QStringLiteral("--device"),
                           QStringLiteral("cpu"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY(process->waitForStarted());
    // Wait until it is really training (a metrics line exists), then interrupt it like Ctrl+C.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(run + QStringLiteral("/metrics.jsonl")).size() > 0, 60000);
    ::kill(pid_t(process->processId()), SIGINT);
    QVERIFY(process->waitForFinished(60000));
    const QString output = QString::fromUtf8(process->readAll());
    QVERIFY2(process->exitCode() == 130, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("--resume")), qPrintable(output));
    QVERIFY(fs::exists(fs::path(run.toStdString()) / "checkpoints" / "last.pt"));
    const auto match = QRegularExpression(QStringLiteral("stopped at epoch (\\d+) iteration (\\d+)")).match(output);
    QVERIFY2(match.hasMatch(), qPrintable(output));
    const int epoch = match.captured(1).toInt();

    // Resume and finish the interrupted epoch: the run ends at exactly that many epochs.
    auto* resumed = start({QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--epochs"),
                           QString::number(epoch), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY(resumed->waitForFinished(60000));
    const QString resumedOutput = QString::fromUtf8(resumed->readAll());
    QCOMPARE(resumed->exitCode(), 0);
    QVERIFY2(resumedOutput.contains(QStringLiteral("finished: %1 epochs").arg(epoch)), qPrintable(resumedOutput));
}

void TestTrainCli::demoRunsEndToEnd()
{
    const QString dir = path(QStringLiteral("demo"));
    auto* process = start({QStringLiteral("demo"), QStringLiteral("--dir"), dir, QStringLiteral("--images"),
                           QStringLiteral("10"), QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--height"),
                           QStringLiteral("64"), QStringLiteral("--width"), QStringLiteral("96"), QStringLiteral("--device"),
                           QStringLiteral("cpu")});
    QVERIFY(process->waitForFinished(120000));
    const QString output = QString::fromUtf8(process->readAll());
    QVERIFY2(process->exitCode() == 0, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("mean IoU")), qPrintable(output));
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/run/checkpoints/best.pt")));
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/run/metrics.jsonl")));

    // predict writes a label map and an overlay per image.
    const QString image = QDir(dir + QStringLiteral("/dataset/images")).entryInfoList(QDir::Files).value(0).absoluteFilePath();
    QVERIFY(!image.isEmpty());
    auto* predict = start({QStringLiteral("predict"), QStringLiteral("-c"), dir + QStringLiteral("/run"), QStringLiteral("-o"),
                           path(QStringLiteral("predictions")), QStringLiteral("--device"), QStringLiteral("cpu"), image});
    QVERIFY(predict->waitForFinished(60000));
    QVERIFY2(predict->exitCode() == 0, predict->readAll().constData());
    const QString stem = QFileInfo(image).completeBaseName();
    QVERIFY(QFileInfo::exists(path(QStringLiteral("predictions/")) + stem + QStringLiteral(".png")));
    QVERIFY(QFileInfo::exists(path(QStringLiteral("predictions/")) + stem + QStringLiteral("_overlay.png")));

    // --confidence: the top softmax probability of 11 classes is at least 1/11 everywhere.
    auto* confident = start({QStringLiteral("predict"), QStringLiteral("-c"), dir + QStringLiteral("/run"), QStringLiteral("-o"),
                             path(QStringLiteral("confident")), QStringLiteral("--device"), QStringLiteral("cpu"),
                             QStringLiteral("--confidence"), QStringLiteral("--no-overlay"), image});
    QVERIFY(confident->waitForFinished(60000));
    QVERIFY2(confident->exitCode() == 0, confident->readAll().constData());
    const QImage confidence(path(QStringLiteral("confident/")) + stem + QStringLiteral("_confidence.png"));
    QCOMPARE(confidence.format(), QImage::Format_Grayscale8);
    int lowest = 255;
    for (int y = 0; y < confidence.height(); ++y)
        for (int x = 0; x < confidence.width(); ++x)
            lowest = std::min(lowest, qGray(confidence.pixel(x, y)));
    QVERIFY2(lowest >= 255 / 11, qPrintable(QString::number(lowest)));
    QVERIFY(QFileInfo::exists(path(QStringLiteral("confident/")) + stem + QStringLiteral("_entropy.png")));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("confident/")) + stem + QStringLiteral("_overlay.png")));
}

// evaluate --report: the report of the val split, by file, with per-image scores consistent with
// the data set's, and the same report from the val pack (images by record).
void TestTrainCli::evaluateWritesTheReport()
{
    const QString dir = path(QStringLiteral("demo"));
    QVERIFY2(QFileInfo::exists(dir + QStringLiteral("/run/checkpoints/best.pt")), "runs after demoRunsEndToEnd");
    const QString project = QDir(dir + QStringLiteral("/dataset")).entryList({QStringLiteral("*.segstudio")}).value(0);
    QVERIFY(!project.isEmpty());
    auto* evaluate = start({QStringLiteral("evaluate"), QStringLiteral("-c"), dir + QStringLiteral("/run"), QStringLiteral("-P"),
                            dir + QStringLiteral("/dataset/") + project, QStringLiteral("-s"), QStringLiteral("val"),
                            QStringLiteral("--report"), path(QStringLiteral("report")), QStringLiteral("--predictions"),
                            path(QStringLiteral("cache")), QStringLiteral("--device"), QStringLiteral("cpu")});
    QVERIFY(evaluate->waitForFinished(120000));
    QVERIFY2(evaluate->exitCode() == 0, evaluate->readAll().constData());
    QFile file(path(QStringLiteral("report/report.json")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject report = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray images = report[QStringLiteral("images")].toArray();
    QVERIFY(!images.isEmpty());
    double labelled = 0, wrong = 0;
    for (const QJsonValue& image : images) {
        labelled += image[QStringLiteral("labelled_pixels")].toDouble();
        wrong += image[QStringLiteral("wrong_pixels")].toDouble();
        const double bf = image[QStringLiteral("mean_bf_score")].toDouble(-1);
        QVERIFY2(bf >= 0 && bf <= 1, qPrintable(QString::number(bf)));
        const QString name = image[QStringLiteral("name")].toString();
        QVERIFY2(QFileInfo::exists(path(QStringLiteral("cache/")) + QFileInfo(name).completeBaseName() + QStringLiteral("_entropy.png")),
                 qPrintable(name));
    }
    QVERIFY(std::abs(report[QStringLiteral("global_accuracy")].toDouble() - (labelled - wrong) / labelled) < 1e-9);
    QCOMPARE(report[QStringLiteral("classes")].toArray().size(), 11);
    QCOMPARE(report[QStringLiteral("confusion")].toArray().size(), 11);
    for (const char* csv : {"classes.csv", "images.csv", "confusion.csv"})
        QVERIFY2(QFileInfo(path(QStringLiteral("report/")) + QLatin1String(csv)).size() > 0, csv);

    auto* fromPack = start({QStringLiteral("evaluate"), QStringLiteral("-c"), dir + QStringLiteral("/run"), QStringLiteral("-p"),
                            dir + QStringLiteral("/val.pack"), QStringLiteral("--json"), QStringLiteral("--report"),
                            path(QStringLiteral("pack-report")), QStringLiteral("--device"), QStringLiteral("cpu")});
    QVERIFY(fromPack->waitForFinished(120000));
    const QByteArray output = fromPack->readAll();
    QVERIFY2(fromPack->exitCode() == 0, output.constData());
    const QJsonObject packReport = QJsonDocument::fromJson(output.trimmed().split('\n').last()).object();
    QCOMPARE(packReport[QStringLiteral("images")].toArray().size(), images.size());
    QCOMPARE(packReport[QStringLiteral("images")].toArray().at(0)[QStringLiteral("name")].toString(), QStringLiteral("#0001"));
}

// Issue 9.4 as a user meets it: no core dump, exit 1, the file and the reason on stderr.
void TestTrainCli::fullDiskFailsWithTheReason()
{
    if (!fs::exists("/dev/full"))
        QSKIP("this system has no /dev/full");
    const QString run = path(QStringLiteral("full-run"));
    QVERIFY(QDir().mkpath(run + QStringLiteral("/checkpoints")));
    // The first checkpoint's temp file is the kernel's always-full device.
    QVERIFY(QFile::link(QStringLiteral("/dev/full"), run + QStringLiteral("/checkpoints/last.pt.tmp")));
    auto* process = start({QStringLiteral("train"), QStringLiteral("--train-pack"), path(QStringLiteral("train.pack")),
                           QStringLiteral("-o"), run, QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--device"),
                           QStringLiteral("cpu"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY(process->waitForFinished(60000));
    const QString output = QString::fromUtf8(process->readAll());
    QCOMPARE(process->exitStatus(), QProcess::NormalExit);
    QCOMPARE(process->exitCode(), 1);
    QVERIFY2(output.contains(QStringLiteral("segstudio-train: ") + run + QStringLiteral("/checkpoints/last.pt: cannot write "
                                                                                         "(No space left on device)")),
             qPrintable(output));
    QVERIFY(!output.contains(QStringLiteral("terminate called")));
    QVERIFY(!fs::exists(fs::symlink_status(fs::path(run.toStdString()) / "checkpoints" / "last.pt.tmp")));
}

void TestTrainCli::summaryNamesTheClasses()
{
    const QString val = path(QStringLiteral("val.pack"));
    segstudio::enginetest::writeStripePack(val.toStdString(), 4, 32, 32, 4, 2);
    auto* process = start({QStringLiteral("train"), QStringLiteral("--train-pack"), path(QStringLiteral("train.pack")),
                           QStringLiteral("--val-pack"), val, QStringLiteral("-o"), path(QStringLiteral("named-run")),
                           QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--device"), QStringLiteral("cpu"),
                           QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY(process->waitForFinished(60000));
    const QString output = QString::fromUtf8(process->readAll());
    QCOMPARE(process->exitCode(), 0);
    // The pack's names (class0..class3), not the numbered stand-ins ("class 0").
    QVERIFY2(output.contains(QStringLiteral("  class0 ")) && output.contains(QStringLiteral("  class3 ")), qPrintable(output));
    QVERIFY2(!output.contains(QStringLiteral("class 1 ")), qPrintable(output));
}

void TestTrainCli::versionAnswersWithoutASubcommand()
{
    auto* process = start({QStringLiteral("--version")});
    QVERIFY(process->waitForFinished(30000));
    QCOMPARE(process->exitCode(), 0);
    const QString output = QString::fromUtf8(process->readAll()).trimmed();
    QVERIFY2(QRegularExpression(QStringLiteral("^segstudio-train \\d+\\.\\d+\\.\\d+$")).match(output).hasMatch(),
             qPrintable(output));
}

// Issue 11: the GUI lists what the engine has, not a copy of it.
void TestTrainCli::modelsAndDevicesAsJson()
{
    auto* models = start({QStringLiteral("models"), QStringLiteral("--json")});
    QVERIFY(models->waitForFinished(30000));
    QCOMPARE(models->exitCode(), 0);
    const auto modelList = nlohmann::json::parse(models->readAllStandardOutput().toStdString());
    QStringList names;
    for (const auto& model : modelList) {
        names << QString::fromStdString(model.at("name").get<std::string>());
        QVERIFY(!model.at("description").get<std::string>().empty());
    }
    for (const char* expected : {"segnet", "segnet-basic", "segnet-tiny"})
        QVERIFY2(names.contains(QLatin1String(expected)), qPrintable(names.join(u',')));

    auto* devices = start({QStringLiteral("devices"), QStringLiteral("--json")});
    QVERIFY(devices->waitForFinished(30000));
    QCOMPARE(devices->exitCode(), 0);
    const auto deviceList = nlohmann::json::parse(devices->readAllStandardOutput().toStdString());
    QVERIFY(!deviceList.empty());
    QCOMPARE(deviceList.front().at("name").get<std::string>(), std::string("cpu"));
    QVERIFY(deviceList.front().at("memory_bytes").get<std::uint64_t>() > 0);
    for (const auto& device : deviceList)
        QVERIFY(device.at("name") == "cpu" || device.at("name").get<std::string>().rfind("cuda:", 0) == 0);
}

QTEST_GUILESS_MAIN(TestTrainCli)
#include "test_TrainCli.moc"
