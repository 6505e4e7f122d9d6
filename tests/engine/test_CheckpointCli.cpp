#include "TestPacks.h"
#include "TrainerProcess.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <caffe2/serialize/inline_container.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <tuple>

extern char** environ;

namespace fs = std::filesystem;

// Issue 22 through segstudio-train as a user runs it: a checkpoint with a flipped byte is refused
// by evaluate, predict and resume; parameters that become NaN/inf end the run with exit code 3 and
// no checkpoint; a trainer killed (kill -9) before its first checkpoint can be resumed; bad
// arguments are refused with the option's name before any work.
class TestCheckpointCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void corruptCheckpointIsRefusedByEveryCommand();
    void nonFiniteParametersExitThreeWithoutCheckpoint();
    void killedBeforeFirstCheckpointCanBeResumed();
    void cudnnSearchIsOffUnlessAsked();
    void badArgumentsAreRefusedBeforeAnyWork_data();
    void badArgumentsAreRefusedBeforeAnyWork();
    void initFromTakesARunFolder();
    void exportWithAnotherClassListNamesTheClassesWithoutColour();
    void predictAdaptsTheBatchNormsWhenAsked();
    void predictAdaptsToAProjectSplit();
    void predictKeepsTheAdaptationForTheNextProcess();
    void aKilledOrFullWriteOfTheAdaptationCostsOnlyTheKeeping();

private:
    QString run(const QStringList& arguments, int* exitCode);
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QStringList newRun(const QString& name) const;

    QTemporaryDir m_dir;
};

namespace {

void flipByteInLargestTensor(const std::string& checkpoint)
{
    std::size_t offset = 0;
    {
        caffe2::serialize::PyTorchStreamReader reader(checkpoint);
        std::size_t largest = 0;
        for (const auto& name : reader.getAllRecords()) {
            if (name.rfind("data/", 0) != 0)
                continue;  // not a tensor storage
            const std::size_t size = std::get<1>(reader.getRecord(name));
            if (size > largest) {
                largest = size;
                offset = reader.getRecordOffset(name) + size / 2;
            }
        }
    }
    std::fstream stream(checkpoint, std::ios::in | std::ios::out | std::ios::binary);
    stream.seekg(std::streamoff(offset));
    const char before = char(stream.get());
    stream.seekp(std::streamoff(offset));
    stream.put(char(before ^ 0x5a));
}

}  // namespace

void TestCheckpointCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(SEGSTUDIO_TRAIN_EXE)));
    segstudio::enginetest::writeStripePack(path(QStringLiteral("train.pack")).toStdString(), 8, 16, 16, 3, 1);
    segstudio::enginetest::writeStripePack(path(QStringLiteral("val.pack")).toStdString(), 4, 16, 16, 3, 2);
    // 200 batches of 1 in an epoch: far more progress lines than the 4 KiB pipe of the kill test holds.
    segstudio::enginetest::writeStripePack(path(QStringLiteral("long.pack")).toStdString(), 200, 16, 16, 3, 3);
    QImage image(40, 30, QImage::Format_RGB888);
    image.fill(QColor(200, 40, 40));
    QVERIFY(image.save(path(QStringLiteral("photo.png"))));
    int code = -1;
    const QString output = run(newRun(QStringLiteral("good")) << QStringLiteral("--val-pack") << path(QStringLiteral("val.pack")), &code);
    QVERIFY2(code == 0, qPrintable(output));
}

QString TestCheckpointCli::run(const QStringList& arguments, int* exitCode)
{
    auto* process = segstudio::enginetest::startTrainer(this, QStringLiteral(SEGSTUDIO_TRAIN_EXE), arguments);
    if (!process->waitForFinished(120000))
        return QStringLiteral("(did not finish)");
    *exitCode = process->exitStatus() == QProcess::NormalExit ? process->exitCode() : -1;
    return QString::fromUtf8(process->readAll());
}

QStringList TestCheckpointCli::newRun(const QString& name) const
{
    return {QStringLiteral("train"),   QStringLiteral("--train-pack"), path(QStringLiteral("train.pack")),
            QStringLiteral("-o"),      path(name),                     QStringLiteral("--model"),
            QStringLiteral("segnet-tiny"), QStringLiteral("--epochs"), QStringLiteral("1"),
            QStringLiteral("--batch"), QStringLiteral("4"),            QStringLiteral("--device"),
            QStringLiteral("cpu"),     QStringLiteral("--threads"),    QStringLiteral("1")};
}

void TestCheckpointCli::corruptCheckpointIsRefusedByEveryCommand()
{
    const fs::path good = path(QStringLiteral("good")).toStdString(), corrupt = path(QStringLiteral("corrupt")).toStdString();
    fs::copy(good, corrupt, fs::copy_options::recursive);
    const QString last = QString::fromStdString((corrupt / "checkpoints" / "last.pt").string());
    flipByteInLargestTensor(last.toStdString());

    const QList<QStringList> commands = {
        {QStringLiteral("evaluate"), QStringLiteral("-c"), last, QStringLiteral("-p"), path(QStringLiteral("val.pack")),
         QStringLiteral("--device"), QStringLiteral("cpu")},
        {QStringLiteral("predict"), QStringLiteral("-c"), last, QStringLiteral("-o"), path(QStringLiteral("predicted")),
         QStringLiteral("--device"), QStringLiteral("cpu"), path(QStringLiteral("photo.png"))},
        {QStringLiteral("train"), QStringLiteral("--resume"), QString::fromStdString(corrupt.string()), QStringLiteral("--epochs"),
         QStringLiteral("2")}};
    for (const auto& command : commands) {
        int code = -1;
        const QString output = run(command, &code);
        QVERIFY2(code == 1 && output.contains(last) && output.contains(QStringLiteral("corrupt")), qPrintable(output));
    }
}

void TestCheckpointCli::nonFiniteParametersExitThreeWithoutCheckpoint()
{
    // Valid but absurd: weight decay 1e38 x a batch-norm weight of 1, times lr 100, overflows
    // float. The first step's loss is finite; the parameters it leaves are not.
    int code = -1;
    const QString output = run(newRun(QStringLiteral("exploded")) << QStringLiteral("--optimizer") << QStringLiteral("sgd")
                                                                  << QStringLiteral("--lr") << QStringLiteral("100")
                                                                  << QStringLiteral("--weight-decay") << QStringLiteral("1e38")
                                                                  << QStringLiteral("--max-iterations") << QStringLiteral("1"),
                               &code);
    QVERIFY2(code == 3 && output.contains(QStringLiteral("NaN/infinite")), qPrintable(output));
    QVERIFY(!fs::exists(path(QStringLiteral("exploded/checkpoints/last.pt")).toStdString()));
    QVERIFY(!fs::exists(path(QStringLiteral("exploded/checkpoints/best.pt")).toStdString()));
}

void TestCheckpointCli::killedBeforeFirstCheckpointCanBeResumed()
{
    // The trainer's stdout is a 4 KiB pipe nobody reads: after about 50 progress lines its next
    // write blocks, so it can never reach the end of its 200-iteration epoch (its first
    // checkpoint), however fast or slow this machine is. Once it has trained (a metrics record),
    // it is killed with SIGKILL.
    const std::string runDir = path(QStringLiteral("killed")).toStdString();
    int pipeEnds[2];
    QVERIFY(::pipe2(pipeEnds, O_CLOEXEC) == 0);
    QVERIFY(::fcntl(pipeEnds[1], F_SETPIPE_SZ, 4096) >= 4096);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO);
    const std::string pack = path(QStringLiteral("long.pack")).toStdString();
    std::vector<std::string> words = {SEGSTUDIO_TRAIN_EXE, "train",  "--train-pack",   pack, "-o", runDir, "--model",
                                      "segnet-tiny",       "--epochs", "1", "--batch", "1", "--log-interval", "1",
                                      "--device",          "cpu",    "--threads", "1"};
    std::vector<char*> argv;
    for (auto& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    QCOMPARE(posix_spawn(&pid, SEGSTUDIO_TRAIN_EXE, &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipeEnds[1]);
    const auto trained = [&] {
        std::ifstream metrics(runDir + "/metrics.jsonl");
        const std::string text((std::istreambuf_iterator<char>(metrics)), std::istreambuf_iterator<char>());
        return text.find("\"kind\":\"train\"") != std::string::npos;
    };
    QTRY_VERIFY_WITH_TIMEOUT(trained(), 120000);
    QCOMPARE(::kill(pid, SIGKILL), 0);
    int status = 0;
    QCOMPARE(::waitpid(pid, &status, 0), pid);
    ::close(pipeEnds[0]);
    QVERIFY(WIFSIGNALED(status));
    QVERIFY(fs::exists(runDir + "/config.json"));
    QVERIFY(!fs::exists(runDir + "/checkpoints/last.pt"));

    int code = -1;
    const QString output = run({QStringLiteral("train"), QStringLiteral("--resume"), QString::fromStdString(runDir),
                                QStringLiteral("--max-iterations"), QStringLiteral("3"), QStringLiteral("--threads"),
                                QStringLiteral("1")},
                               &code);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("from the beginning")), qPrintable(output));
    QVERIFY(fs::exists(runDir + "/checkpoints/last.pt"));
}

void TestCheckpointCli::cudnnSearchIsOffUnlessAsked()
{
    const auto searchInConfig = [this](const QString& run) {
        QFile file(path(run + QStringLiteral("/config.json")));
        if (!file.open(QIODevice::ReadOnly))
            return QJsonValue(QStringLiteral("no config.json"));
        return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("cudnnBenchmark"));
    };
    QCOMPARE(searchInConfig(QStringLiteral("good")), QJsonValue(false));
    int code = -1;
    QString output = run(newRun(QStringLiteral("searched")) << QStringLiteral("--cudnn-benchmark") << QStringLiteral("--max-iterations")
                                                            << QStringLiteral("1"),
                         &code);
    QVERIFY2(code == 0, qPrintable(output));
    QCOMPARE(searchInConfig(QStringLiteral("searched")), QJsonValue(true));
    output = run(newRun(QStringLiteral("recipe-unsearched")) << QStringLiteral("--recipe") << QStringLiteral("--no-cudnn-benchmark")
                                                             << QStringLiteral("--max-iterations") << QStringLiteral("1"),
                 &code);
    QVERIFY2(code == 0, qPrintable(output));
    QCOMPARE(searchInConfig(QStringLiteral("recipe-unsearched")), QJsonValue(false));
}

void TestCheckpointCli::badArgumentsAreRefusedBeforeAnyWork_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    const QString demoDir = path(QStringLiteral("demo-never"));
    const auto demo = [&](const QString& option, const QString& value) {
        return QStringList{QStringLiteral("demo"), QStringLiteral("--dir"), demoDir, option, value};
    };
    const auto train = [&](const QStringList& extra) { return newRun(QStringLiteral("never")) + extra; };
    const QString good = path(QStringLiteral("good"));
    QTest::newRow("demo --images -5") << demo(QStringLiteral("--images"), QStringLiteral("-5")) << "--images";
    QTest::newRow("demo --images 0") << demo(QStringLiteral("--images"), QStringLiteral("0")) << "--images";
    QTest::newRow("demo --images 10^9") << demo(QStringLiteral("--images"), QStringLiteral("1000000000")) << "--images";
    QTest::newRow("demo --height 0") << demo(QStringLiteral("--height"), QStringLiteral("0")) << "--height";
    QTest::newRow("demo --epochs -1") << demo(QStringLiteral("--epochs"), QStringLiteral("-1")) << "--epochs";
    QTest::newRow("--lr inf") << train({QStringLiteral("--lr"), QStringLiteral("inf")}) << "--lr";
    QTest::newRow("--lr nan") << train({QStringLiteral("--lr"), QStringLiteral("nan")}) << "--lr";
    QTest::newRow("--lr 1e300 (beyond float)") << train({QStringLiteral("--lr"), QStringLiteral("1e300")}) << "--lr";
    QTest::newRow("--lr -1") << train({QStringLiteral("--lr"), QStringLiteral("-1")}) << "--lr";
    QTest::newRow("--epochs -2") << train({QStringLiteral("--epochs"), QStringLiteral("-2")}) << "--epochs";
    QTest::newRow("--color-jitter 1.5") << train({QStringLiteral("--color-jitter"), QStringLiteral("1.5")}) << "--color-jitter";
    QTest::newRow("--batch 0") << train({QStringLiteral("--batch"), QStringLiteral("0")}) << "--batch";
    QTest::newRow("--timeout 0") << train({QStringLiteral("--timeout"), QStringLiteral("0")}) << "--timeout";
    QTest::newRow("crop larger than the images")
        << train({QStringLiteral("--crop-height"), QStringLiteral("64"), QStringLiteral("--crop-width"), QStringLiteral("64")})
        << "larger than its images";
    QTest::newRow("--amp fp16 on a CPU") << train({QStringLiteral("--amp"), QStringLiteral("fp16")}) << "needs a CUDA device";
    QTest::newRow("--resume --epochs -2") << QStringList{QStringLiteral("train"), QStringLiteral("--resume"), good,
                                                         QStringLiteral("--epochs"), QStringLiteral("-2")}
                                          << "--epochs";
    QTest::newRow("--resume --model") << QStringList{QStringLiteral("train"), QStringLiteral("--resume"), good,
                                                     QStringLiteral("--model"), QStringLiteral("segnet")}
                                      << "cannot change a resumed run";
    QTest::newRow("evaluate --batch 0") << QStringList{QStringLiteral("evaluate"), QStringLiteral("-c"), good, QStringLiteral("-p"),
                                                       path(QStringLiteral("val.pack")), QStringLiteral("--batch"), QStringLiteral("0")}
                                        << "--batch";
    // Issue 46, items 11-12: a word where a count belongs is "not a number", not "not in range";
    // an empty value names its option; every size is positive and bounded (16384: ImageSide.h).
    const auto command = [&](const QString& name, const QStringList& extra) {
        return QStringList{name, QStringLiteral("-c"), good} + extra;
    };
    const QString never = path(QStringLiteral("never"));
    QTest::newRow("demo --images abc") << demo(QStringLiteral("--images"), QStringLiteral("abc"))
                                       << "--images: 'abc' is not a number";
    QTest::newRow("--epochs 2.5") << train({QStringLiteral("--epochs"), QStringLiteral("2.5")})
                                  << "--epochs: 2.5 is not a whole number";
    QTest::newRow("evaluate --threads abc")
        << command(QStringLiteral("evaluate"), {QStringLiteral("-p"), path(QStringLiteral("val.pack")),
                                                QStringLiteral("--threads"), QStringLiteral("abc")})
        << "--threads: 'abc' is not a number";
    QTest::newRow("--time-budget= before the other options")
        << QStringList{QStringLiteral("train"), QStringLiteral("--time-budget=")} + newRun(QStringLiteral("never")).mid(1)
        << "--time-budget: the value is empty";
    QTest::newRow("--time-budget ''") << train({QStringLiteral("--time-budget"), QString()})
                                      << "--time-budget: the value is empty";
    QTest::newRow("--crop-height 40000")
        << train({QStringLiteral("--crop-height"), QStringLiteral("40000"), QStringLiteral("--crop-width"), QStringLiteral("8")})
        << "--crop-height: 40000 is not in [0, 16384]";
    QTest::newRow("export-model --height -5")
        << command(QStringLiteral("export-model"), {QStringLiteral("-o"), never, QStringLiteral("--height"), QStringLiteral("-5")})
        << "--height: -5 is not in [1, 16384]";
    QTest::newRow("export-model --width 0")
        << command(QStringLiteral("export-model"), {QStringLiteral("-o"), never, QStringLiteral("--width"), QStringLiteral("0")})
        << "--width: 0 is not in [1, 16384]";
    QTest::newRow("export-model --height 40000")
        << command(QStringLiteral("export-model"), {QStringLiteral("-o"), never, QStringLiteral("--height"), QStringLiteral("40000")})
        << "--height: 40000 is not in [1, 16384]";
    QTest::newRow("predict --opacity nan")
        << command(QStringLiteral("predict"), {QStringLiteral("-o"), never, QStringLiteral("--opacity"), QStringLiteral("nan"),
                                               path(QStringLiteral("photo.png"))})
        << "--opacity: nan is not a finite number";
    QTest::newRow("predict --adapt-norm 2")
        << command(QStringLiteral("predict"), {QStringLiteral("-o"), never, QStringLiteral("--adapt-norm"), QStringLiteral("2"),
                                               path(QStringLiteral("photo.png"))})
        << "--adapt-norm: 2 is neither auto nor a number in [0, 1]";
    QTest::newRow("predict --adapt-norm sometimes")
        << command(QStringLiteral("predict"), {QStringLiteral("-o"), never, QStringLiteral("--adapt-norm"), QStringLiteral("sometimes"),
                                               path(QStringLiteral("photo.png"))})
        << "--adapt-norm: sometimes is neither auto nor a number in [0, 1]";
    QTest::newRow("predict --runtime opencv --adapt-norm 1")
        << QStringList{QStringLiteral("predict"), QStringLiteral("--runtime"), QStringLiteral("opencv"), QStringLiteral("-c"),
                       path(QStringLiteral("model.onnx")), QStringLiteral("-o"), never, QStringLiteral("--adapt-norm"),
                       QStringLiteral("1"), path(QStringLiteral("photo.png"))}
        << "--adapt-norm needs the LibTorch runtime";
    QTest::newRow("predict --adapt-split without --project")
        << command(QStringLiteral("predict"), {QStringLiteral("-o"), never, QStringLiteral("--adapt-norm"), QStringLiteral("1"),
                                               QStringLiteral("--adapt-split"), QStringLiteral("val"), path(QStringLiteral("photo.png"))})
        << "--adapt-split requires --project";
}

void TestCheckpointCli::badArgumentsAreRefusedBeforeAnyWork()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const auto lastBefore = fs::last_write_time(path(QStringLiteral("good/checkpoints/last.pt")).toStdString());
    int code = -1;
    const QString output = run(arguments, &code);
    QVERIFY2(code == 1 && output.contains(expected), qPrintable(output));
    QVERIFY2(output.trimmed().split(QLatin1Char('\n')).size() <= 2, qPrintable(output));  // the error, and CLI11's "--help" hint
    QVERIFY(!fs::exists(path(QStringLiteral("demo-never")).toStdString()));
    QVERIFY(!fs::exists(path(QStringLiteral("never")).toStdString()));
    QVERIFY(fs::last_write_time(path(QStringLiteral("good/checkpoints/last.pt")).toStdString()) == lastBefore);
}

// Issue 46.12: --init-from took only a checkpoint file, where every other command takes a run
// folder too. It takes the folder's checkpoint as they do (best.pt: "good" validated), and the
// new run's config.json names that file.
void TestCheckpointCli::initFromTakesARunFolder()
{
    int code = -1;
    const QString output =
        run(newRun(QStringLiteral("from-folder")) << QStringLiteral("--init-from") << path(QStringLiteral("good"))
                                                  << QStringLiteral("--max-iterations") << QStringLiteral("1"),
            &code);
    QVERIFY2(code == 0, qPrintable(output));
    QFile config(path(QStringLiteral("from-folder/config.json")));
    QVERIFY(config.open(QIODevice::ReadOnly));
    const QString initFrom =
        QJsonDocument::fromJson(config.readAll()).object().value(QStringLiteral("initFrom")).toString();
    QCOMPARE(QFileInfo(initFrom).canonicalFilePath(),
             QFileInfo(path(QStringLiteral("good/checkpoints/best.pt"))).canonicalFilePath());
}

// Issue 46.12: export-model -P with a project of other classes wrote a file without colours and
// said nothing. It still writes the model, and warns naming the classes left without a colour.
void TestCheckpointCli::exportWithAnotherClassListNamesTheClassesWithoutColour()
{
    QVERIFY(QDir().mkpath(path(QStringLiteral("shots"))));
    QVERIFY(QFile::copy(path(QStringLiteral("photo.png")), path(QStringLiteral("shots/photo.png"))));
    int code = -1;
    const QString project = path(QStringLiteral("camvid-classes.segstudio"));
    QString output = run({QStringLiteral("import"), QStringLiteral("images"), path(QStringLiteral("shots")),
                          QStringLiteral("-o"), project},
                         &code);
    QVERIFY2(code == 0, qPrintable(output));  // CamVid's 11 classes; the model knows class0..class2
    const QString onnx = path(QStringLiteral("good.onnx"));
    output = run({QStringLiteral("export-model"), QStringLiteral("-c"), path(QStringLiteral("good")),
                  QStringLiteral("-o"), onnx, QStringLiteral("--height"), QStringLiteral("64"),
                  QStringLiteral("--width"), QStringLiteral("96"), QStringLiteral("-P"), project},
                 &code);
    QVERIFY2(code == 0 && QFileInfo::exists(onnx), qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("warning: ") + project), qPrintable(output));
    QVERIFY2(output.contains(
                 QStringLiteral("3 of the model's 3 classes get no colour in the file ('class0', 'class1', 'class2')")),
             qPrintable(output));
}

// predict --adapt-norm: the model's batch norms estimated on the images first (AdaBN), so the
// same image gets other scores than the trained model gives it, and says so.
void TestCheckpointCli::predictAdaptsTheBatchNormsWhenAsked()
{
    const auto predict = [&](const QString& out, const QStringList& extra) {
        int code = -1;
        const QString output = run(QStringList{QStringLiteral("predict"), QStringLiteral("-c"), path(QStringLiteral("good")),
                                               QStringLiteral("-o"), path(out), QStringLiteral("--device"), QStringLiteral("cpu"),
                                               QStringLiteral("--confidence"), path(QStringLiteral("photo.png"))} +
                                       extra,
                                   &code);
        return std::make_pair(code, output);
    };
    const auto [trainedCode, trainedOutput] = predict(QStringLiteral("as-trained"), {});
    QVERIFY2(trainedCode == 0, qPrintable(trainedOutput));
    QVERIFY(!trainedOutput.contains(QStringLiteral("adapted")));
    const auto [adaptedCode, adaptedOutput] = predict(QStringLiteral("adapted"), {QStringLiteral("--adapt-norm"), QStringLiteral("1")});
    QVERIFY2(adaptedCode == 0, qPrintable(adaptedOutput));
    QVERIFY2(adaptedOutput.contains(QStringLiteral("adapted the batch norms to 1 of the images (weight 1, shift ")), qPrintable(adaptedOutput));
    const auto bytes = [&](const QString& file) {
        QFile f(path(file));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray trained = bytes(QStringLiteral("as-trained/photo_confidence.png"));
    const QByteArray adapted = bytes(QStringLiteral("adapted/photo_confidence.png"));
    QVERIFY(!trained.isEmpty() && !adapted.isEmpty());
    QVERIFY(trained != adapted);
    // auto: adapted only where the images' shift exceeds --adapt-shift, and said either way.
    const auto [keptCode, keptOutput] = predict(QStringLiteral("auto-kept"), {QStringLiteral("--adapt-norm"), QStringLiteral("auto"),
                                                                             QStringLiteral("--adapt-shift"), QStringLiteral("1e6")});
    QVERIFY2(keptCode == 0, qPrintable(keptOutput));
    QVERIFY2(keptOutput.contains(QStringLiteral("the batch norms as trained: the shift of 1 of the images")), qPrintable(keptOutput));
    QCOMPARE(bytes(QStringLiteral("auto-kept/photo_confidence.png")), trained);
    const auto [autoCode, autoOutput] = predict(QStringLiteral("auto-adapted"), {QStringLiteral("--adapt-norm"), QStringLiteral("auto"),
                                                                               QStringLiteral("--adapt-shift"), QStringLiteral("0")});
    QVERIFY2(autoCode == 0, qPrintable(autoOutput));
    QVERIFY2(autoOutput.contains(QStringLiteral("adapted the batch norms to 1 of the images (weight 1, shift ")), qPrintable(autoOutput));
    QCOMPARE(bytes(QStringLiteral("auto-adapted/photo_confidence.png")), adapted);
}

// predict --adapt-split: the editor predicts one image at a time, and a single image's statistics
// are a poor estimate, so it adapts to the project's split while predicting the one image asked for.
void TestCheckpointCli::predictAdaptsToAProjectSplit()
{
    QVERIFY(QDir().mkpath(path(QStringLiteral("dusk"))));
    for (int i = 0; i < 3; ++i) {
        QImage image(40, 30, QImage::Format_RGB888);
        image.fill(QColor(20 + 10 * i, 30, 60 - 10 * i));
        QVERIFY(image.save(path(QStringLiteral("dusk/frame%1.png").arg(i))));
    }
    QFile schema(path(QStringLiteral("three-classes.json")));
    QVERIFY(schema.open(QIODevice::WriteOnly));
    schema.write(R"([{"id": 0, "name": "class0", "color": "#ff0000"}, {"id": 1, "name": "class1", "color": "#00ff00"},
                     {"id": 2, "name": "class2", "color": "#0000ff"}])");
    schema.close();
    const QString project = path(QStringLiteral("dusk.segstudio"));
    int code = -1;
    QString output = run({QStringLiteral("import"), QStringLiteral("images"), path(QStringLiteral("dusk")), QStringLiteral("-o"),
                          project, QStringLiteral("--schema"), schema.fileName()},
                         &code);
    QVERIFY2(code == 0, qPrintable(output));
    output = run({QStringLiteral("predict"), QStringLiteral("-c"), path(QStringLiteral("good")), QStringLiteral("-P"), project,
                  QStringLiteral("-o"), path(QStringLiteral("dusk-predicted")), QStringLiteral("--device"), QStringLiteral("cpu"),
                  QStringLiteral("--adapt-norm"), QStringLiteral("1"), QStringLiteral("--adapt-split"), QStringLiteral("all"),
                  path(QStringLiteral("dusk/frame0.png"))},
                 &code);
    QVERIFY2(code == 0, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("adapted the batch norms to 3 of the images")), qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("predicted 1/1")), qPrintable(output));
    output = run({QStringLiteral("predict"), QStringLiteral("-c"), path(QStringLiteral("good")), QStringLiteral("-P"), project,
                  QStringLiteral("-o"), path(QStringLiteral("dusk-never")), QStringLiteral("--adapt-norm"), QStringLiteral("1"),
                  QStringLiteral("--adapt-split"), QStringLiteral("test"), path(QStringLiteral("dusk/frame0.png"))},
                 &code);
    QVERIFY2(code == 1 && output.contains(QStringLiteral("--adapt-split test: the project has no such images")),
             qPrintable(output));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("dusk-never"))));
}

// predict --keep-adaptation: the editor starts one process per image, each of which observed the
// project's 16 images again; the adaptation is kept in the output folder and put back while the
// checkpoint, the observed images and the options are the same, with the same scores to the bit.
void TestCheckpointCli::predictKeepsTheAdaptationForTheNextProcess()
{
    QVERIFY(QDir().mkpath(path(QStringLiteral("keep"))));
    const QString photo = path(QStringLiteral("keep/photo.png"));
    QVERIFY(QFile::copy(path(QStringLiteral("photo.png")), photo));
    const auto predict = [&](const QString& out, const QStringList& extra) {
        int code = -1;
        const QString output = run(QStringList{QStringLiteral("predict"), QStringLiteral("-c"), path(QStringLiteral("good")),
                                               QStringLiteral("-o"), path(out), QStringLiteral("--device"), QStringLiteral("cpu"),
                                               QStringLiteral("--confidence"), QStringLiteral("--no-overlay"), photo} +
                                       extra,
                                   &code);
        return std::make_pair(code, output);
    };
    const auto bytes = [&](const QString& file) {
        QFile f(path(file));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QStringList adapt{QStringLiteral("--adapt-norm"), QStringLiteral("1"), QStringLiteral("--keep-adaptation")};
    int code = -1;
    QString output;
    std::tie(code, output) = predict(QStringLiteral("kept"), adapt);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("adapted the batch norms to 1 of the images (weight 1, shift ")),
             qPrintable(output));
    QVERIFY2(!output.contains(QStringLiteral("as kept in")), qPrintable(output));
    QVERIFY(QFileInfo(path(QStringLiteral("kept/adaptation.pt"))).size() > 0);
    const QByteArray observed = bytes(QStringLiteral("kept/photo_scores.png"));
    QVERIFY(!observed.isEmpty());

    std::tie(code, output) = predict(QStringLiteral("kept"), adapt);  // the next process: put back
    QVERIFY2(code == 0 && output.contains(QStringLiteral("(weight 1, shift ")) &&
                 output.contains(QStringLiteral("as kept in ") + path(QStringLiteral("kept/adaptation.pt"))),
             qPrintable(output));
    QCOMPARE(bytes(QStringLiteral("kept/photo_scores.png")), observed);
    std::tie(code, output) = predict(QStringLiteral("not-kept"), {QStringLiteral("--adapt-norm"), QStringLiteral("1")});
    QVERIFY2(code == 0, qPrintable(output));
    QCOMPARE(bytes(QStringLiteral("not-kept/photo_scores.png")), observed);  // what observing gives
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("not-kept/adaptation.pt"))));

    // Another option, or an image changed since: observed again, and kept anew.
    const QStringList gated{QStringLiteral("--adapt-norm"), QStringLiteral("auto"), QStringLiteral("--adapt-shift"),
                            QStringLiteral("1e6"), QStringLiteral("--keep-adaptation")};
    std::tie(code, output) = predict(QStringLiteral("kept"), gated);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("the batch norms as trained")) && !output.contains(QStringLiteral("as kept in")),
             qPrintable(output));
    std::tie(code, output) = predict(QStringLiteral("kept"), gated);
    QVERIFY2(output.contains(QStringLiteral("the batch norms as trained")) && output.contains(QStringLiteral("as kept in")),
             qPrintable(output));
    {
        QFile file(photo);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(60), QFileDevice::FileModificationTime));
    }
    std::tie(code, output) = predict(QStringLiteral("kept"), gated);
    QVERIFY2(code == 0 && !output.contains(QStringLiteral("as kept in")), qPrintable(output));

    // A file of that name that SegStudio did not write is the user's: left as it is.
    QVERIFY(QDir().mkpath(path(QStringLiteral("mine"))));
    QFile mine(path(QStringLiteral("mine/adaptation.pt")));
    QVERIFY(mine.open(QIODevice::WriteOnly));
    mine.write("my notes");
    mine.close();
    std::tie(code, output) = predict(QStringLiteral("mine"), adapt);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("the adaptation is not kept")), qPrintable(output));
    QCOMPARE(bytes(QStringLiteral("mine/adaptation.pt")), QByteArray("my notes"));
    QCOMPARE(bytes(QStringLiteral("mine/photo_scores.png")), observed);
}

// The adaptation's write as a kill -9 leaves it (run::writeFileAtomically: the bytes so far in
// adaptation.pt.tmp beside the kept file, which is never touched before the rename) and on a full
// disk (adaptation.pt.tmp a link to /dev/full): the next predict works past both, predicting what
// observing gives, and keeps the adaptation where the disk lets it.
void TestCheckpointCli::aKilledOrFullWriteOfTheAdaptationCostsOnlyTheKeeping()
{
    QVERIFY(QDir().mkpath(path(QStringLiteral("faults"))));
    const QString photo = path(QStringLiteral("faults/photo.png"));
    QVERIFY(QFile::copy(path(QStringLiteral("photo.png")), photo));
    const auto predict = [&](const QString& out, const QStringList& extra, int* code) {
        return run(QStringList{QStringLiteral("predict"), QStringLiteral("-c"), path(QStringLiteral("good")), QStringLiteral("-o"),
                               path(out), QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--confidence"),
                               QStringLiteral("--no-overlay"), photo} +
                       extra,
                   code);
    };
    const auto bytes = [&](const QString& file) {
        QFile f(path(file));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QStringList adapt{QStringLiteral("--adapt-norm"), QStringLiteral("1"), QStringLiteral("--keep-adaptation")};
    int code = -1;
    QString output = predict(QStringLiteral("faults/observed"), {QStringLiteral("--adapt-norm"), QStringLiteral("1")}, &code);
    QVERIFY2(code == 0, qPrintable(output));
    const QByteArray observed = bytes(QStringLiteral("faults/observed/photo_scores.png"));
    QVERIFY(!observed.isEmpty());

    // Killed while writing the first adaptation: half its bytes in the temp file, no adaptation.pt.
    output = predict(QStringLiteral("faults/kept"), adapt, &code);
    QVERIFY2(code == 0, qPrintable(output));
    const QByteArray whole = bytes(QStringLiteral("faults/kept/adaptation.pt"));
    QVERIFY(whole.size() > 2);
    QVERIFY(QFile::rename(path(QStringLiteral("faults/kept/adaptation.pt")), path(QStringLiteral("faults/kept/adaptation.pt.tmp"))));
    QVERIFY(QFile::resize(path(QStringLiteral("faults/kept/adaptation.pt.tmp")), whole.size() / 2));
    output = predict(QStringLiteral("faults/kept"), adapt, &code);
    QVERIFY2(code == 0 && !output.contains(QStringLiteral("as kept in")), qPrintable(output));  // observed again
    QCOMPARE(bytes(QStringLiteral("faults/kept/photo_scores.png")), observed);
    QCOMPARE(bytes(QStringLiteral("faults/kept/adaptation.pt")), whole);
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("faults/kept/adaptation.pt.tmp"))));
    // Killed while a process of other options replaced it: the kept one is whole, and put back.
    QFile partial(path(QStringLiteral("faults/kept/adaptation.pt.tmp")));
    QVERIFY(partial.open(QIODevice::WriteOnly));
    partial.write(whole.left(whole.size() / 3));
    partial.close();
    output = predict(QStringLiteral("faults/kept"), adapt, &code);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("as kept in")), qPrintable(output));
    QCOMPARE(bytes(QStringLiteral("faults/kept/photo_scores.png")), observed);

    // A full disk: said, the adaptation not kept, the images predicted all the same.
    QVERIFY(QDir().mkpath(path(QStringLiteral("faults/full"))));
    QVERIFY(QFile::link(QStringLiteral("/dev/full"), path(QStringLiteral("faults/full/adaptation.pt.tmp"))));
    output = predict(QStringLiteral("faults/full"), adapt, &code);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("the adaptation was not kept")), qPrintable(output));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("faults/full/adaptation.pt"))));
    QCOMPARE(bytes(QStringLiteral("faults/full/photo_scores.png")), observed);
}

QTEST_GUILESS_MAIN(TestCheckpointCli)
#include "test_CheckpointCli.moc"
