// Issue 65.1: the run folder a training takes, out of Trainer and tested alone: a foreign file
// refused by name, a run that can be resumed refused to a new run, the leftovers of a run killed
// before its first checkpoint removed, the lock held.
#include "engine/runtime/EngineError.h"
#include "engine/training/RunFolderClaim.h"
#include "run/RunLayout.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace segstudio::engine;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text)
{
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

QString refusal(const std::string& runDir, bool resuming)
{
    try {
        RunFolderClaim::claim(runDir, resuming);
    } catch (const EngineError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

}  // namespace

class TestRunFolderClaim : public QObject {
    Q_OBJECT

private slots:
    void aNewFolderIsCreatedAndLocked()
    {
        QTemporaryDir dir;
        const std::string run = (fs::path(dir.path().toStdString()) / "new").string();
        auto lock = RunFolderClaim::claim(run, false);
        QVERIFY(lock);
        QVERIFY(fs::is_directory(segstudio::run::RunLayout(run).checkpointsFolder()));
        // Held: a second training of the same folder is refused while the first one runs.
        QVERIFY_THROWS_EXCEPTION(std::exception, RunFolderClaim::claim(run, false));
    }

    void aFileThatIsNotARunsIsNeverWrittenBeside()
    {
        QTemporaryDir dir;
        const fs::path run = fs::path(dir.path().toStdString()) / "photos";
        write(run / "holiday.jpg", "not a run's");
        const QString said = refusal(run.string(), false);
        QVERIFY2(said.contains(QStringLiteral("holiday.jpg")) && said.contains(QStringLiteral("not a file of a SegStudio run")),
                 qPrintable(said));
        QVERIFY(!fs::exists(run / "checkpoints"));  // nothing changed
    }

    void aRunThatCanBeResumedIsNotStartedAgain()
    {
        QTemporaryDir dir;
        const fs::path run = fs::path(dir.path().toStdString()) / "run";
        const segstudio::run::RunLayout layout(run);
        write(layout.lastCheckpoint(), "a checkpoint");
        write(layout.configFile(), "{}");
        QVERIFY(refusal(run.string(), false).contains(QStringLiteral("already holds a run; resume it")));
        QVERIFY(RunFolderClaim::claim(run.string(), true));  // resuming takes it
        QVERIFY(fs::exists(layout.lastCheckpoint()));
    }

    void theMetricsOfARunWithoutACheckpointAreLeftovers()
    {
        QTemporaryDir dir;
        const fs::path run = fs::path(dir.path().toStdString()) / "killed";
        const segstudio::run::RunLayout layout(run);
        // As a run writes its first record (RunRecorder: the run record first).
        write(layout.metricsFile(), "{\"kind\":\"run\",\"segstudio_version\":\"0\"}\n{\"kind\":\"train\"}\n");
        QVERIFY(RunFolderClaim::claim(run.string(), false));
        QVERIFY(!fs::exists(layout.metricsFile()));
    }

    void anEmptyNameIsRefused()
    {
        QVERIFY(refusal("", false).contains(QStringLiteral("runDir is empty")));
    }
};

QTEST_APPLESS_MAIN(TestRunFolderClaim)
#include "test_RunFolderClaim.moc"
