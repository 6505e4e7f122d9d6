#include "data/ProjectLock.h"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using segstudio::data::ProjectLock;

// The project lock against real processes: a forked child that has exited (a crashed SegStudio)
// and one that is still running (a second SegStudio), plus foreign hosts and damaged lock files.
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
            // The same process asking again (a second editor tab) is not a conflict.
            ProjectLock again(project);
            QCOMPARE(again.acquire(), ProjectLock::Result::Acquired);
        }
        QVERIFY(!std::filesystem::exists(lockFile));
    }

    void takesOverLockOfDeadProcess()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        const pid_t dead = deadPid();
        writeLock(lock.lockFile(), dead, ProjectLock::currentProcess().host);
        QVERIFY(!ProjectLock::isAlive({dead, ProjectLock::currentProcess().host}));
        QCOMPARE(lock.acquire(), ProjectLock::Result::TookOverStale);
        QVERIFY(lock.held());
        QCOMPARE(lock.owner()->pid, ProjectLock::currentProcess().pid);
    }

    void refusesLockOfLiveProcess()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        const pid_t child = fork();
        if (child == 0) {
            pause();  // a second SegStudio, alive until killed
            _exit(0);
        }
        writeLock(lock.lockFile(), child, ProjectLock::currentProcess().host);
        const ProjectLock::Result result = lock.acquire();
        const auto owner = lock.owner();
        kill(child, SIGKILL);
        waitpid(child, nullptr, 0);
        QCOMPARE(result, ProjectLock::Result::HeldByOther);
        QVERIFY(!lock.held());
        QCOMPARE(owner->pid, static_cast<long long>(child));  // the other's lock is left alone

        // Once that process is gone, the same lock file is stale.
        QCOMPARE(lock.acquire(), ProjectLock::Result::TookOverStale);
    }

    void lockFromAnotherHostCountsAsLive()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        writeLock(lock.lockFile(), deadPid(), "another-host.invalid");
        QCOMPARE(lock.acquire(), ProjectLock::Result::HeldByOther);
        QCOMPARE(lock.owner()->host, std::string("another-host.invalid"));
    }

    void unreadableLockIsStale()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        std::ofstream(lock.lockFile()) << "{ half a lo";
        QCOMPARE(lock.acquire(), ProjectLock::Result::TookOverStale);
        QCOMPARE(lock.owner()->pid, ProjectLock::currentProcess().pid);
    }

    void forceAcquireThenReleaseKeepsOthersLock()
    {
        QTemporaryDir dir;
        ProjectLock lock(std::filesystem::path(dir.path().toStdString()) / "p.segstudio");
        writeLock(lock.lockFile(), 1, "another-host.invalid");
        QCOMPARE(lock.acquire(), ProjectLock::Result::HeldByOther);
        lock.forceAcquire();  // "edit anyway"
        QVERIFY(lock.held());
        QCOMPARE(lock.owner()->pid, ProjectLock::currentProcess().pid);
        // Another instance forces its way in meanwhile: releasing must not delete its lock.
        writeLock(lock.lockFile(), 1, "another-host.invalid");
        lock.release();
        QVERIFY(!lock.held());
        QVERIFY(std::filesystem::exists(lock.lockFile()));
        QCOMPARE(lock.owner()->host, std::string("another-host.invalid"));
    }
};

QTEST_APPLESS_MAIN(TestProjectLock)
#include "test_ProjectLock.moc"
