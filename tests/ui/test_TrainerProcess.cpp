#include "UiTestProject.h"
#include "common/TrainerArguments.h"
#include "common/TrainerProcess.h"
#include "run/ExitCode.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using segstudio::ui::common::TrainerArguments;
using segstudio::ui::common::TrainerProcess;

namespace {

// A stand-in for segstudio-train: a shell script with the given body.
QString writeScript(const QString& dir, const QByteArray& body)
{
    const QString file = QDir(dir).filePath(QStringLiteral("segstudio-train"));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write("#!/bin/sh\n" + body);
    out.close();
    QFile::setPermissions(file, QFile::permissions(file) | QFileDevice::ExeOwner);
    return file;
}

// Field n (1-based) of /proc/<pid>/stat, after the command name in parentheses.
long statField(qint64 pid, int field)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    return field - 3 < fields.size() ? fields[field - 3].toLong() : -1;
}

TrainerProcess::Exit finishedExit(const QSignalSpy& spy) { return spy.first().first().value<TrainerProcess::Exit>(); }

}  // namespace

Q_DECLARE_METATYPE(TrainerProcess::Exit)

class TestTrainerProcess : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<TrainerProcess::Exit>(); }

    // One message per outcome, whichever panel started the trainer (issue 26).
    void exitCodesBecomeOneSetOfMessages()
    {
        const auto describe = [](const char* subcommand, int code, const char* tail = "") {
            return TrainerProcess::describe(QString::fromLatin1(subcommand), QProcess::NormalExit, code, QString::fromLatin1(tail));
        };
        QVERIFY(describe("train", segstudio::run::kExitOk).ok);
        const auto stopped = describe("train", segstudio::run::kExitStopped);
        QVERIFY(stopped.stopped && !stopped.ok);
        QVERIFY(stopped.message.contains(QStringLiteral("Resume")));
        QVERIFY(describe("train", segstudio::run::kExitDiverged).message.contains(QStringLiteral("diverged")));
        const auto hung = describe("train", segstudio::run::kExitPeerTimeout);
        QVERIFY2(hung.message.contains(QStringLiteral("stopped answering")), qPrintable(hung.message));
        QVERIFY(describe("train", segstudio::run::kExitRunBusy).message.contains(QStringLiteral("Another segstudio-train")));
        // A failure carries segstudio-train's own error line (file and problem), named by the step.
        QCOMPARE(describe("pack", 1, "packing 3/7\rsegstudio-train: /p/a.png: cannot read\n").message,
                 QStringLiteral("Packing the project failed: /p/a.png: cannot read"));
        QCOMPARE(describe("predict", 1, "").message, QStringLiteral("Predicting failed (exit code 1); see the log."));
        const auto crashed = TrainerProcess::describe(QStringLiteral("evaluate"), QProcess::CrashExit, 9, {});
        QVERIFY(crashed.crashed && !crashed.ok);
    }

    void runsTheProgramAndPassesItsOutputOn()
    {
        QTemporaryDir dir;
        TrainerProcess process;
        process.setProgram(writeScript(dir.path(), "echo \"first $1\"\necho 'segstudio-train: /runs/a/config.json: bad value' >&2\nexit 1\n"));
        QSignalSpy output(&process, &TrainerProcess::output);
        QSignalSpy finished(&process, &TrainerProcess::finished);
        QVERIFY(process.start({QStringLiteral("train"), QStringLiteral("--resume")}));
        QVERIFY(process.commandLine().endsWith(QStringLiteral("segstudio-train train --resume")));
        QVERIFY(finished.wait(30000));
        const auto exit = finishedExit(finished);
        QVERIFY(!exit.ok);
        QCOMPARE(exit.code, 1);
        QCOMPARE(exit.message, QStringLiteral("Training failed: /runs/a/config.json: bad value"));
        QVERIFY(!output.isEmpty());
        QVERIFY(process.tail().contains(QStringLiteral("first train")));
    }

    void keepsStandardOutputApartWhenAsked()
    {
        QTemporaryDir dir;
        TrainerProcess process;
        process.setSeparateChannels(true);
        process.setProgram(writeScript(dir.path(), "echo '[{\"name\":\"cpu\"}]'\necho 'a warning' >&2\n"));
        QSignalSpy finished(&process, &TrainerProcess::finished);
        QVERIFY(process.start(TrainerArguments::catalogue(QStringLiteral("devices"))));
        QVERIFY(finished.wait(30000));
        QVERIFY(finishedExit(finished).ok);
        QCOMPARE(process.standardOutput().trimmed(), QByteArray("[{\"name\":\"cpu\"}]"));
        QVERIFY(process.tail().contains(QStringLiteral("a warning")));
        QVERIFY(!process.tail().contains(QStringLiteral("cpu")));
    }

    void saysWhenItCannotStart()
    {
        TrainerProcess process;
        process.setProgram({});
        QVERIFY(!process.start({QStringLiteral("train")}));
        QVERIFY(!TrainerProcess::notFoundMessage().isEmpty());
        process.setProgram(QStringLiteral("/nonexistent/segstudio-train"));
        QSignalSpy finished(&process, &TrainerProcess::finished);
        QVERIFY(process.start({QStringLiteral("train")}));
        QVERIFY(finished.count() == 1 || finished.wait(30000));
        const auto exit = finishedExit(finished);
        QVERIFY(exit.failedToStart && !exit.ok);
        QVERIFY(exit.message.startsWith(QStringLiteral("Cannot start /nonexistent/segstudio-train")));
    }

    // A training the user keeps runs in its own session and survives its object (release());
    // the live fine-tune runs at the lowest priority.
    void launchesInItsOwnSessionOrAtTheLowestPriority()
    {
        QTemporaryDir dir;
        const QString program = writeScript(dir.path(), "echo started\nexec tail -f /dev/null\n");
        qint64 pid = 0;
        {
            TrainerProcess process;
            process.setProgram(program);
            process.setLaunch(TrainerProcess::Launch::OwnSession);
            QSignalSpy output(&process, &TrainerProcess::output);
            QVERIFY(process.start({QStringLiteral("train")}));
            QVERIFY(output.wait(30000));
            pid = process.processId();
            QCOMPARE(statField(pid, 6), long(pid));  // the session leader: its own session
            process.release();
        }
        QCOMPARE(::kill(pid_t(pid), 0), 0);  // released, not killed
        ::kill(pid_t(pid), SIGKILL);

        TrainerProcess background;
        background.setProgram(program);
        background.setLaunch(TrainerProcess::Launch::LowestPriority);
        QSignalSpy output(&background, &TrainerProcess::output);
        QVERIFY(background.start({QStringLiteral("train")}));
        QVERIFY(output.wait(30000));
        QCOMPARE(statField(background.processId(), 19), 19L);  // nice
        const qint64 niced = background.processId();
        background.kill();
        QVERIFY(!background.isRunning());
        QVERIFY(::kill(pid_t(niced), 0) != 0);
    }

    // One builder per subcommand: the options the CLI knows (docs/ENGINE.md).
    void argumentListsPerSubcommand()
    {
        QCOMPARE(TrainerArguments::pack(QStringLiteral("/p/x.segstudio"), QStringLiteral("val"), QStringLiteral("/r/val.pack"), 90, 120),
                 segstudio::test::strings({"pack", "--project", "/p/x.segstudio", "--split", "val", "--out", "/r/val.pack", "--height", "90",
                              "--width", "120"}));
        const QStringList split = TrainerArguments::predictSplit(QStringLiteral("/r/best.pt"), QStringLiteral("/r/predictions/best"),
                                                                 QStringLiteral("/p/x.segstudio"), QStringLiteral("all"));
        QCOMPARE(split.mid(0, 5), segstudio::test::strings({"predict", "-c", "/r/best.pt", "-o", "/r/predictions/best"}));
        QVERIFY(split.contains(QStringLiteral("--confidence")) && split.contains(QStringLiteral("--no-overlay")));
        QCOMPARE(split.mid(split.indexOf(QStringLiteral("-s")), 2), segstudio::test::strings({"-s", "all"}));
        const QStringList images = TrainerArguments::predictImages(QStringLiteral("/r/best.pt"), QStringLiteral("/c"),
                                                                   QStringLiteral("/p/x.segstudio"), {QStringLiteral("/p/a.png")});
        QCOMPARE(images.last(), QStringLiteral("/p/a.png"));
        QVERIFY(!images.contains(QStringLiteral("-s")));
        const QStringList evaluate = TrainerArguments::evaluate(QStringLiteral("/r/last.pt"), QStringLiteral("/p/x.segstudio"),
                                                                QStringLiteral("val"), QStringLiteral("/r/evaluation/last"),
                                                                QStringLiteral("/r/predictions/last"));
        QCOMPARE(evaluate.first(), QStringLiteral("evaluate"));
        QCOMPARE(evaluate.mid(evaluate.indexOf(QStringLiteral("--predictions")), 2),
                 segstudio::test::strings({"--predictions", "/r/predictions/last"}));
        QVERIFY(!TrainerArguments::evaluate(QStringLiteral("/r/last.pt"), QStringLiteral("/p/x.segstudio"), QStringLiteral("val"),
                                            QStringLiteral("/r/evaluation/last"), QString())
                     .contains(QStringLiteral("--predictions")));  // the model as trained, beside an adapted cache
        QCOMPARE(TrainerArguments::adaptation(), segstudio::test::strings({"--adapt-norm", "auto", "--adapt-split", "all",
                                                                           "--adapt-images", "16"}));
        QCOMPARE(TrainerArguments::keptAdaptation(), TrainerArguments::adaptation() << QStringLiteral("--keep-adaptation"));
        QCOMPARE(evaluate.mid(evaluate.indexOf(QStringLiteral("--report")), 2), segstudio::test::strings({"--report", "/r/evaluation/last"}));
        QCOMPARE(TrainerArguments::resume(QStringLiteral("/r"), 20), segstudio::test::strings({"train", "--resume", "/r", "--epochs", "20"}));
        QCOMPARE(TrainerArguments::resume(QStringLiteral("/r")), segstudio::test::strings({"train", "--resume", "/r"}));
        QCOMPARE(TrainerArguments::resume(QStringLiteral("/r"), 0, 45),
                 segstudio::test::strings({"train", "--resume", "/r", "--time-budget", "45m"}));
    }
};

QTEST_MAIN(TestTrainerProcess)
#include "test_TrainerProcess.moc"
