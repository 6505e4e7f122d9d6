// Issue 60: the commands around the exports never touch a file they did not write. Each case runs
// segstudio-train as a user does, with the user's files in place (the project's label maps, a
// folder of the user's PNGs, the user's config.json, model, report), and checks that the command
// is refused naming the file and that every byte of the user's files is still there; a predict
// killed (kill -9) mid-way is retried to the end.
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <csignal>

class TestOwnFilesCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void predictionsNeverGoIntoTheLabelFolder();
    void predictNeverReplacesAUsersPngOfTheSameName();
    void aPredictKilledMidwayIsRetriedToTheEnd();
    void trainNeverWritesBesideAUsersFiles();
    void exportModelNeverReplacesAUsersFile();
    void aReportNeverReplacesAUsersFile();
    void resumeWithFewerEpochsThanDoneIsRefused();
    void optionsSayWhatTheyTake();

private:
    QString run(const QStringList& arguments, int* exitCode);
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString project() const { return path(QStringLiteral("demo/dataset/demo.segstudio")); }
    QString labels() const { return path(QStringLiteral("demo/dataset/labels")); }
    QString trainedRun() const { return path(QStringLiteral("demo/run")); }
    // Every file under folder with its content's hash: "nothing changed" is this, before and after.
    static QMap<QString, QByteArray> contents(const QString& folder);

    QTemporaryDir m_dir;
};

void TestOwnFilesCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    int code = -1;
    const QString output = run({QStringLiteral("demo"), QStringLiteral("--dir"), path(QStringLiteral("demo")), QStringLiteral("--images"),
                                QStringLiteral("12"), QStringLiteral("--height"), QStringLiteral("48"), QStringLiteral("--width"),
                                QStringLiteral("64"), QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--model"),
                                QStringLiteral("segnet-tiny")},
                               &code);
    QVERIFY2(code == 0, qPrintable(output));
}

QString TestOwnFilesCli::run(const QStringList& arguments, int* exitCode)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral(SEGSTUDIO_TRAIN_EXE), arguments);
    if (!process.waitForFinished(300000))
        process.kill();
    process.waitForFinished();
    *exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return QString::fromUtf8(process.readAll());
}

QMap<QString, QByteArray> TestOwnFilesCli::contents(const QString& folder)
{
    QMap<QString, QByteArray> all;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly))
            all.insert(file.fileName(), QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256));
    }
    return all;
}

// 60.1: predict -o and evaluate --predictions into the project's label folder replaced the
// ground truth with predictions, rc 0.
void TestOwnFilesCli::predictionsNeverGoIntoTheLabelFolder()
{
    const auto before = contents(labels());
    QVERIFY(before.size() >= 12);
    int code = -1;
    QString output = run({QStringLiteral("predict"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-P"), project(),
                          QStringLiteral("-s"), QStringLiteral("all"), QStringLiteral("-o"), labels()},
                         &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("is the project's label folder")), qPrintable(output));
    output = run({QStringLiteral("evaluate"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-P"), project(),
                  QStringLiteral("-s"), QStringLiteral("val"), QStringLiteral("--predictions"), labels()},
                 &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("is the project's label folder")), qPrintable(output));
    QCOMPARE(contents(labels()), before);
}

// 60.1: predict -o <a folder holding the user's PNGs of the same names> replaced them.
void TestOwnFilesCli::predictNeverReplacesAUsersPngOfTheSameName()
{
    const QString mine = path(QStringLiteral("mine"));
    QVERIFY(QDir().mkpath(mine));
    const QString image = path(QStringLiteral("demo/dataset/images/street_0001.png"));
    QVERIFY(QFile::copy(image, mine + QStringLiteral("/street_0001.png")));
    const auto before = contents(mine);
    int code = -1;
    QString output = run({QStringLiteral("predict"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-o"), mine, image}, &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("street_0001.png: exists and was not written here by SegStudio")),
             qPrintable(output));
    QCOMPARE(contents(mine), before);
    // Into a folder of its own: the second predict replaces what the first wrote.
    const QString out = path(QStringLiteral("predicted"));
    for (int round = 0; round < 2; ++round) {
        output = run({QStringLiteral("predict"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-o"), out, image}, &code);
        QVERIFY2(code == 0, qPrintable(output));
    }
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/street_0001_overlay.png")));
}

// The kill comes once predict has written something (its ledger records a file); the retry
// takes what the killed one wrote as its own and finishes every image.
void TestOwnFilesCli::aPredictKilledMidwayIsRetriedToTheEnd()
{
    const QString out = path(QStringLiteral("killed"));
    const QStringList arguments{QStringLiteral("predict"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-P"), project(),
                                QStringLiteral("-s"), QStringLiteral("all"), QStringLiteral("--confidence"), QStringLiteral("-o"), out};
    QProcess killed;
    killed.start(QStringLiteral(SEGSTUDIO_TRAIN_EXE), arguments);
    QVERIFY(killed.waitForStarted());
    const auto recordedAFile = [&out] {
        QFile ledger(out + QStringLiteral("/.segstudio-outputs.jsonl"));
        return ledger.open(QIODevice::ReadOnly) && ledger.readAll().contains("fingerprint");
    };
    while (killed.state() == QProcess::Running && !recordedAFile())
        QThread::yieldCurrentThread();
    ::kill(pid_t(killed.processId()), SIGKILL);
    killed.waitForFinished();
    int code = -1;
    const QString output = run(arguments, &code);
    QVERIFY2(code == 0, qPrintable(output));
    QVERIFY(output.contains(QStringLiteral("predicted 12/12")));
}

// 60.2: train -o <a folder holding the user's config.json and metrics.jsonl> overwrote both; -o
// <the label folder> mixed run files into it.
void TestOwnFilesCli::trainNeverWritesBesideAUsersFiles()
{
    const QString folder = path(QStringLiteral("experiment"));
    QVERIFY(QDir().mkpath(folder));
    QFile config(folder + QStringLiteral("/config.json"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"model": "unet", "epochs": 50, "lr": 0.01})");
    config.close();
    QFile metrics(folder + QStringLiteral("/metrics.jsonl"));
    QVERIFY(metrics.open(QIODevice::WriteOnly));
    metrics.write("{\"epoch\": 1, \"loss\": 0.5}\n");
    metrics.close();
    for (const QString& target : {folder, labels()}) {
        const auto before = contents(target);
        int code = -1;
        const QString output = run({QStringLiteral("train"), QStringLiteral("--train-pack"), path(QStringLiteral("demo/train.pack")),
                                    QStringLiteral("-o"), target, QStringLiteral("--epochs"), QStringLiteral("1"),
                                    QStringLiteral("--model"), QStringLiteral("segnet-tiny"), QStringLiteral("--batch"), QStringLiteral("2")},
                                   &code);
        QVERIFY2(code != 0 && output.contains(QStringLiteral("not a file of a SegStudio run")), qPrintable(output));
        QCOMPARE(contents(target), before);
        QVERIFY(!QFileInfo::exists(target + QStringLiteral("/checkpoints")));
    }
}

// 60.3: export-model -o m.onnx over the user's m.onnx replaced it; its own earlier export it replaces.
void TestOwnFilesCli::exportModelNeverReplacesAUsersFile()
{
    const QString model = path(QStringLiteral("m.onnx"));
    QFile file(model);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("the user's model");
    file.close();
    int code = -1;
    QString output = run({QStringLiteral("export-model"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-o"), model}, &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("is not a model SegStudio exported")), qPrintable(output));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("the user's model"));
    const QString own = path(QStringLiteral("own.onnx"));
    for (int round = 0; round < 2; ++round) {
        output = run({QStringLiteral("export-model"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-o"), own}, &code);
        QVERIFY2(code == 0, qPrintable(output));
    }
}

// 60.3: evaluate --report rep over the user's rep/report.json replaced it. An earlier report is
// replaced; one of its files edited since is not.
void TestOwnFilesCli::aReportNeverReplacesAUsersFile()
{
    const QString users = path(QStringLiteral("rep"));
    QVERIFY(QDir().mkpath(users));
    QFile mine(users + QStringLiteral("/report.json"));
    QVERIFY(mine.open(QIODevice::WriteOnly));
    mine.write(R"({"my": "notes"})");
    mine.close();
    const auto before = contents(users);
    const auto evaluate = [this](const QString& folder, int* code) {
        return run({QStringLiteral("evaluate"), QStringLiteral("-c"), trainedRun(), QStringLiteral("-P"), project(),
                    QStringLiteral("-s"), QStringLiteral("val"), QStringLiteral("--report"), folder},
                   code);
    };
    int code = -1;
    QString output = evaluate(users, &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("is not a SegStudio evaluation report")), qPrintable(output));
    QCOMPARE(contents(users), before);
    // CSV files of a report's names but no report.json are somebody's too.
    const QString csvs = path(QStringLiteral("csvs"));
    QVERIFY(QDir().mkpath(csvs));
    QFile table(csvs + QStringLiteral("/classes.csv"));
    QVERIFY(table.open(QIODevice::WriteOnly) && table.write("my,own,table\n") > 0);
    table.close();
    output = evaluate(csvs, &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("no report.json")), qPrintable(output));
    const QString own = path(QStringLiteral("own-report"));
    for (int round = 0; round < 2; ++round) {
        output = evaluate(own, &code);
        QVERIFY2(code == 0, qPrintable(output));
    }
    QFile csv(own + QStringLiteral("/classes.csv"));
    QVERIFY(csv.open(QIODevice::Append));
    csv.write("my remark\n");
    csv.close();
    const auto edited = contents(own);
    output = evaluate(own, &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("was changed since the report was written")), qPrintable(output));
    QCOMPARE(contents(own), edited);
}

// 60.5: --resume R --epochs 1 on a run that trained more: rc 0, a made-up "last loss 0.0000" and
// records whose epoch went back to 1. Refused, naming what was done; the records untouched.
void TestOwnFilesCli::resumeWithFewerEpochsThanDoneIsRefused()
{
    const QString runDir = path(QStringLiteral("three"));
    int code = -1;
    QString output = run({QStringLiteral("train"), QStringLiteral("--train-pack"), path(QStringLiteral("demo/train.pack")),
                          QStringLiteral("-o"), runDir, QStringLiteral("--epochs"), QStringLiteral("3"), QStringLiteral("--model"),
                          QStringLiteral("segnet-tiny"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--batch"),
                          QStringLiteral("2")},
                         &code);
    QVERIFY2(code == 0, qPrintable(output));
    const auto before = contents(runDir);
    for (const char* epochs : {"1", "3"}) {
        output = run({QStringLiteral("train"), QStringLiteral("--resume"), runDir, QStringLiteral("--epochs"), QString::fromLatin1(epochs)},
                     &code);
        QVERIFY2(code != 0 && output.contains(QStringLiteral("the run has trained 3 epoch(s)")), qPrintable(output));
        QCOMPARE(contents(runDir), before);
    }
}

// 60.7: --crop-share 1 was refused while --help says [0, 1]; export -o "" printed a raw
// file-system error.
void TestOwnFilesCli::optionsSayWhatTheyTake()
{
    int code = -1;
    QString output = run({QStringLiteral("train"), QStringLiteral("--train-pack"), path(QStringLiteral("demo/train.pack")),
                          QStringLiteral("-o"), path(QStringLiteral("whole")), QStringLiteral("--max-iterations"), QStringLiteral("1"),
                          QStringLiteral("--model"), QStringLiteral("segnet-tiny"), QStringLiteral("--crop-share"), QStringLiteral("1"),
                          QStringLiteral("--batch"), QStringLiteral("2")},
                         &code);
    QVERIFY2(code == 0, qPrintable(output));
    output = run({QStringLiteral("export"), project(), QStringLiteral("-o"), QString(), QStringLiteral("--format"), QStringLiteral("cvat")},
                 &code);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("no destination folder given")), qPrintable(output));
}

QTEST_GUILESS_MAIN(TestOwnFilesCli)
#include "test_OwnFilesCli.moc"
