// Issue 64.2: the commands that train a run elsewhere, checked without a network: what the far
// side's shell makes of the quoted words (run by a real sh), the job script, the target and the
// run folder's record of it.
#include "remote/RemoteCommands.h"
#include "remote/RemoteRunRecord.h"
#include "run/FileError.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace segstudio::remote;

namespace {

// What sh prints for `printf '%s\n' WORDS`: one line per word it saw.
QStringList wordsSeenBySh(const std::string& words)
{
    QProcess sh;
    sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("printf '%s\\n' ") + QString::fromStdString(words)});
    sh.waitForFinished(10000);
    QStringList lines = QString::fromUtf8(sh.readAllStandardOutput()).split('\n');
    lines.removeLast();  // after the last newline
    return lines;
}

RemoteTarget slurmTarget()
{
    RemoteTarget target;
    target.kind = RemoteTarget::Kind::Slurm;
    target.host = "login.cluster";
    target.user = "ana";
    target.partition = "gpu";
    target.gpus = 4;
    target.timeLimitMinutes = 90;
    return target;
}

}  // namespace

class TestRemoteCommands : public QObject {
    Q_OBJECT

private slots:
    void everyWordReachesTheFarShellWhole()
    {
        const std::vector<std::string> words{"plain", "two words", "it's", "$HOME", "a;b", "", "\"q\"", "*"};
        QStringList expected;
        for (const auto& word : words)
            expected << QString::fromStdString(word);
        QCOMPARE(wordsSeenBySh(RemoteCommands::quoted(words)), expected);
        QCOMPARE(RemoteCommands::quote("segstudio-runs/run-3"), std::string("segstudio-runs/run-3"));  // readable when plain
    }

    void sshNeverPromptsAndNoticesADeadLink()
    {
        RemoteTarget target;
        target.host = "gpu1";
        target.user = "ana";
        target.port = 2222;
        target.sshOptions = {"-F", "/tmp/cfg"};
        const auto command = RemoteCommands::ssh(target, "echo hi");
        const QStringList words = [&] {
            QStringList list;
            for (const auto& word : command)
                list << QString::fromStdString(word);
            return list;
        }();
        QCOMPARE(words.first(), QStringLiteral("ssh"));
        QVERIFY(words.contains(QStringLiteral("BatchMode=yes")));
        QVERIFY(words.contains(QStringLiteral("ServerAliveInterval=5")));
        QCOMPARE(words.mid(words.indexOf(QStringLiteral("-p")), 2), (QStringList{"-p", "2222"}));
        QVERIFY(words.indexOf(QStringLiteral("-F")) < words.indexOf(QStringLiteral("ana@gpu1")));
        QCOMPARE(words.mid(words.size() - 3), (QStringList{"ana@gpu1", "--", "echo hi"}));
    }

    void theRunFolderThereIsUnderTheFolderOfRuns()
    {
        RemoteTarget target;
        target.host = "gpu1";
        QCOMPARE(RemoteCommands::remoteRunDir(target, "run-1"), std::string("segstudio-runs/run-1"));
        target.folder = "~/work/runs/";
        QCOMPARE(RemoteCommands::remoteRunDir(target, "run-1"), std::string("work/runs/run-1"));  // the home is where ssh starts
        target.folder = "/scratch/ana";
        QCOMPARE(RemoteCommands::remoteRunDir(target, "run-1"), std::string("/scratch/ana/run-1"));
    }

    // The SSH start backgrounds the trainer itself (not a subshell), so the pid it prints is the
    // one a stop must signal.
    void theStartPrintsTheTrainersOwnPid()
    {
        RemoteTarget target;
        target.host = "gpu1";
        target.trainer = "/bin/sleep";
        QTemporaryDir dir;
        const std::string runDir = (dir.path() + QStringLiteral("/runs/r 1")).toStdString();
        QProcess sh;
        sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromStdString(RemoteCommands::start(target, runDir, {"30"}))});
        QVERIFY(sh.waitForFinished(10000));
        const qint64 pid = QString::fromUtf8(sh.readAllStandardOutput()).trimmed().toLongLong();
        QVERIFY(pid > 0);
        // The pid is the sh fork that execs nohup, which execs the trainer: that pid, once exec'd.
        const auto commandLineOf = [pid] {
            QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        QTRY_VERIFY(commandLineOf().startsWith("/bin/sleep"));
        QVERIFY(QFileInfo(QString::fromStdString(runDir)).isDir());
        RemoteRunRecord record{target, runDir, pid, {}};
        const auto status = [&] {
            QProcess check;
            check.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromStdString(RemoteCommands::status(record))});
            check.waitForFinished(10000);
            return QString::fromUtf8(check.readAllStandardOutput()).trimmed();
        };
        QCOMPARE(status(), QStringLiteral("running"));
        QCOMPARE(QProcess::execute(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromStdString(RemoteCommands::stop(record))}), 0);
        QTRY_COMPARE(status(), QStringLiteral("ended"));
    }

    // Never into, nor mirrored home from, another run's folder of the same name there.
    void aRunFolderThatExistsThereIsRefused()
    {
        QTemporaryDir dir;
        const std::string runDir = (dir.path() + QStringLiteral("/runs/r1")).toStdString();
        const auto make = [&] {
            return QProcess::execute(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromStdString(RemoteCommands::makeRunDir(runDir))});
        };
        QCOMPARE(make(), 0);
        QVERIFY(QFileInfo(QString::fromStdString(runDir)).isDir());
        QVERIFY(make() != 0);
    }

    // squeue's answers: a job listed runs; one no longer listed or no longer known has ended; any
    // other error is no answer (exit 1: the panel asks again), never "ended".
    void aJobsStatusComesFromSqueue_data()
    {
        QTest::addColumn<QString>("squeue");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("said");
        QTest::newRow("running") << QStringLiteral("echo RUNNING") << 0 << QStringLiteral("running");
        QTest::newRow("no longer listed") << QStringLiteral("true") << 0 << QStringLiteral("ended");
        QTest::newRow("purged") << QStringLiteral("echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1") << 0
                                << QStringLiteral("ended");
        QTest::newRow("controller down") << QStringLiteral("echo 'slurm_load_jobs error: Socket timed out' >&2; exit 1")
                                         << 1 << QString();
    }
    void aJobsStatusComesFromSqueue()
    {
        QFETCH(QString, squeue);
        QFETCH(int, exitCode);
        QFETCH(QString, said);
        QTemporaryDir bin;
        QFile fake(bin.filePath(QStringLiteral("squeue")));
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write(("#!/bin/sh\n" + squeue + "\n").toUtf8());
        fake.close();
        fake.setPermissions(fake.permissions() | QFileDevice::ExeOwner);
        QProcess sh;
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PATH"), bin.path() + QStringLiteral(":") + environment.value(QStringLiteral("PATH")));
        sh.setProcessEnvironment(environment);
        sh.start(QStringLiteral("/bin/sh"),
                 {QStringLiteral("-c"), QString::fromStdString(RemoteCommands::status({slurmTarget(), "runs/r", 0, "42"}))});
        QVERIFY(sh.waitForFinished(10000));
        QCOMPARE(sh.exitCode(), exitCode);
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()).trimmed(), said);
    }

    void aTrainerInTheRemoteHomeIsFound()
    {
        RemoteTarget target;
        target.host = "gpu1";
        target.trainer = "~/venv/bin/segstudio-train";
        const std::string command = RemoteCommands::start(target, "runs/r", {"train"});
        QVERIFY2(command.find("nohup \"$HOME\"/venv/bin/segstudio-train train") != std::string::npos, command.c_str());
    }

    void theJobScriptAsksForTheNodeAndItsGpus()
    {
        const std::string script = RemoteCommands::jobScript(slurmTarget(), "segstudio-runs/run-2", {"train", "-o", "segstudio-runs/run-2"});
        QVERIFY(script.rfind("#!/bin/sh\n", 0) == 0);
        for (const char* line : {"#SBATCH --job-name=segstudio-run-2\n", "#SBATCH --output=segstudio-runs/run-2.out\n",
                                 "#SBATCH --nodes=1\n", "#SBATCH --ntasks-per-node=4\n", "#SBATCH --gpus-per-node=4\n",
                                 "#SBATCH --partition=gpu\n", "#SBATCH --time=90\n",
                                 "exec srun segstudio-train train -o segstudio-runs/run-2 --device cuda\n"})
            QVERIFY2(script.find(line) != std::string::npos, line);
        const RemoteRunRecord record{slurmTarget(), "segstudio-runs/run-2", 0, "4711"};
        QCOMPARE(RemoteCommands::stop(record), std::string("scancel 4711"));
        QCOMPARE(RemoteCommands::stopAfterEpoch(record), std::string("scancel --signal=USR1 4711"));
    }

    void aTargetSaysWhereAndWhatIsWrong()
    {
        QCOMPARE(slurmTarget().describe(), std::string("SLURM via ana@login.cluster (partition gpu, 4 GPUs)"));
        RemoteTarget target;
        QCOMPARE(target.problem(), std::string("no host"));
        target.host = "-oProxyCommand=evil";
        QVERIFY(target.problem().rfind("not a host name", 0) == 0);
        target.host = "gpu1";
        target.folder = "my runs";
        QVERIFY(target.problem().find("spaces") != std::string::npos);
        const RemoteTarget back = RemoteTarget::fromJson(slurmTarget().toJson());
        QCOMPARE(back.describe(), slurmTarget().describe());
        QCOMPARE(back.timeLimitMinutes, 90);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RemoteTarget::fromJson({{"kind", "ftp"}, {"host", "x"}}));
    }

    void theRecordIsReadBackAndADamagedOneIsNamed()
    {
        QTemporaryDir dir;
        const std::filesystem::path run = dir.path().toStdString();
        QVERIFY(!RemoteRunRecord::read(run));
        RemoteRunRecord{slurmTarget(), "segstudio-runs/run-2", 0, "4711"}.write(run);
        const auto back = RemoteRunRecord::read(run);
        QVERIFY(back);
        QCOMPARE(back->jobId, std::string("4711"));
        QCOMPARE(back->handle(), std::string("SLURM job 4711 via ana@login.cluster"));
        QFile file(QString::fromStdString(RemoteRunRecord::fileIn(run).string()));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"target\": {\"kind\": \"ssh\"");
        file.close();
        try {
            RemoteRunRecord::read(run);
            QFAIL("a damaged record was read");
        } catch (const segstudio::run::FileError& error) {
            QVERIFY(std::string(error.what()).find("remote.json") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestRemoteCommands)
#include "test_RemoteCommands.moc"
