#include "data/project/ProjectLock.h"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using segstudio::data::ProjectLock;

// The project lock against real processes: a forked child that holds it (a second SegStudio),
// one killed with SIGKILL while holding it (a crash), two racing for it, a read-only folder, and
// lock files left behind or damaged.
class TestProjectLock : public QObject {
    Q_OBJECT

private:
    static void writeLock(const std::filesystem::path& lockFile, long long pid, const std::string& host)
    {
        std::ofstream(lockFile) << "{\"pid\": " << pid << ", \"host\": \"" << host << "\"}";
    }

    static pid_t deadPid()
    {
        const pid_t child = fork();
        if (child == 0)
            _exit(0);
        waitpid(child, nullptr, 0);  // reaped: the pid names no process any more
        return child;
    }

    static char readByte(int fd)
    {
        char byte = 0;
        while (::read(fd, &byte, 1) < 0 && errno == EINTR) {
        }
        return byte;
    }

    // A child that takes the lock, says what it got on `report`, then holds on until killed.
    static pid_t holderProcess(const std::filesystem::path& project, char& result)
    {
        int pipeFds[2];
        if (::pipe(pipeFds) != 0)
            return -1;
        const pid_t child = fork();
        if (child == 0) {
            ::close(pipeFds[0]);
            ProjectLock lock(project);
            const char got = char('0' + int(lock.acquire()));
            (void)!::write(pipeFds[1], &got, 1);
            for (;;)
                pause();
        }
        ::close(pipeFds[1]);
        result = readByte(pipeFds[0]);
        ::close(pipeFds[0]);
        return child;
    }

    static void reap(pid_t child)
    {
        kill(child, SIGKILL);
        waitpid(child, nullptr, 0);
    }

private slots:
    void acquireOnFreeProjectAndReleaseOnDestruction()
    {
        QTemporaryDir dir;
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "p.segstudio";
        std::filesystem::path lockFile;
        {
            ProjectLock lock(project);
            lockFile = lock.lockFile();
            QCOMPARE(lock.acquire(), ProjectLock::Result::Acquired);
            QVERIFY(lock.held());
            QVERIFY(std::filesystem::exists(lockFile));
            QCOMPARE(lock.owner()->pid, ProjectLock::currentProcess().pid);
            QCOMPARE(lock.acquire(), ProjectLock::Result::Acquired);  // asking again is idempotent
            // A second window in the same process is a second editor all the same.
            ProjectLock again(project);
            QCOMPARE(again.acquire(), ProjectLock::Result::HeldByOther);
            QVERIFY(!again.held());
        }
        QVERIFY(!std::filesystem::exists(lockFile));
    }

    void takesOverLockFileOfDeadProcess()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        writeLock(lock.lockFile(), deadPid(), ProjectLock::currentProcess().host);
        QCOMPARE(lock.acquire(), ProjectLock::Result::TookOverStale);
        QVERIFY(lock.held());
        QCOMPARE(lock.owner()->pid, ProjectLock::currentProcess().pid);
    }

    void refusesLiveHolderAndTakesOverAfterItIsKilled()
    {
        QTemporaryDir dir;
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "p.segstudio";
        char childGot = 0;
        const pid_t child = holderProcess(project, childGot);
        QVERIFY(child > 0);
        QCOMPARE(childGot, char('0' + int(ProjectLock::Result::Acquired)));

        ProjectLock lock(project);
        const ProjectLock::Result result = lock.acquire();
        const auto owner = lock.owner();
        reap(child);  // kill -9: the kernel drops its flock, the file stays behind
        QCOMPARE(result, ProjectLock::Result::HeldByOther);
        QVERIFY(!lock.held());
        QVERIFY(owner.has_value());
        QCOMPARE(owner->pid, static_cast<long long>(child));

        QVERIFY(std::filesystem::exists(lock.lockFile()));
        QCOMPARE(lock.acquire(), ProjectLock::Result::TookOverStale);
        QCOMPARE(lock.owner()->pid, ProjectLock::currentProcess().pid);
    }

    // The kernel arbitrates, not the file's content: a lock file naming a foreign host that no
    // process holds is a leftover (a crash there, or an older SegStudio), not a live lock.
    void leftoverLockFileOfAnotherHostIsTakenOver()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        writeLock(lock.lockFile(), 1, "another-host.invalid");
        QCOMPARE(lock.acquire(), ProjectLock::Result::TookOverStale);
        QCOMPARE(lock.owner()->host, ProjectLock::currentProcess().host);
    }

    void unreadableLockFileIsTakenOver()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        std::ofstream(lock.lockFile()) << "{ half a lo";
        QCOMPARE(lock.acquire(), ProjectLock::Result::Acquired);
        QCOMPARE(lock.owner()->pid, ProjectLock::currentProcess().pid);
    }

    // Two processes start at the same instant, 100 times: exactly one holds the lock each time.
    void exactlyOneOfTwoRacingProcessesWins()
    {
        QTemporaryDir dir;
        const std::filesystem::path project = std::filesystem::path(dir.path().toStdString()) / "p.segstudio";
        for (int round = 0; round < 100; ++round) {
            int go[2], results[2], done[2];
            QVERIFY(::pipe(go) == 0 && ::pipe(results) == 0 && ::pipe(done) == 0);
            pid_t children[2];
            for (pid_t& child : children) {
                child = fork();
                if (child == 0) {
                    ::close(go[1]);
                    ::close(results[0]);
                    ::close(done[1]);
                    readByte(go[0]);  // both wait here, then race
                    {
                        ProjectLock lock(project);
                        const char got = char('0' + int(lock.acquire()));
                        (void)!::write(results[1], &got, 1);
                        readByte(done[0]);  // hold on until the parent has both answers
                    }  // released as a window closing does (_exit skips destructors)
                    _exit(0);
                }
            }
            ::close(go[0]);
            ::close(results[1]);
            ::close(done[0]);
            ::close(go[1]);  // EOF releases both at once
            const char first = readByte(results[0]);
            const char second = readByte(results[0]);
            ::close(done[1]);
            ::close(results[0]);
            for (pid_t child : children)
                waitpid(child, nullptr, 0);
            const char acquired = char('0' + int(ProjectLock::Result::Acquired));
            const char refused = char('0' + int(ProjectLock::Result::HeldByOther));
            const bool oneWon = (first == acquired && second == refused) || (first == refused && second == acquired);
            if (!oneWon)
                QFAIL(qPrintable(QStringLiteral("round %1: the two got %2 and %3").arg(round).arg(first).arg(second)));
            QVERIFY2(!std::filesystem::exists(project.string() + ".lock"), "the winner removes its lock when done");
        }
    }

    // A folder this user cannot write (as root, the child drops to nobody, since root writes
    // anywhere): no lock, no exception, and the reason for the message.
    void readOnlyFolderIsNotWritableNotAnError()
    {
        QTemporaryDir dir;
        const std::filesystem::path folder = std::filesystem::path(dir.path().toStdString()) / "ro";
        std::filesystem::create_directory(folder);
        QVERIFY(::chmod(folder.c_str(), 0555) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
        const pid_t child = fork();
        if (child == 0) {
            if (geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
                _exit(10);
            ProjectLock lock(folder / "p.segstudio");
            const ProjectLock::Result result = lock.acquire();
            _exit(result == ProjectLock::Result::NotWritable && !lock.failure().empty() && !lock.held() ? 0 : 1);
        }
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY(!std::filesystem::exists(folder / "p.segstudio.lock"));
    }
};

QTEST_APPLESS_MAIN(TestProjectLock)
#include "test_ProjectLock.moc"
