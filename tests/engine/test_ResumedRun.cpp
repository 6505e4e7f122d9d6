// Issue 65.1: what a resume trains, taken out of Trainer and tested alone: the recorded
// configuration from the last checkpoint or from config.json alone, the overrides, and the
// refusals with the folder's or the file's name.
#include "TestPacks.h"
#include "engine/runtime/EngineError.h"
#include "engine/training/ResumedRun.h"
#include "engine/training/Trainer.h"
#include "run/RunLayout.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace segstudio::engine;
namespace fs = std::filesystem;

class TestResumedRun : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        segstudio::enginetest::writeStripePack(path("train.pack"), 8, 32, 32, 4, 3);
        const auto outcome = Trainer(config("done", 2)).run();
        QCOMPARE(outcome.epochsCompleted, 2);
    }

    void aCheckpointedRunGoesOnWithItsConfiguration()
    {
        const ResumedRun resumed = ResumedRun::of(path("done"), {});
        QVERIFY(resumed.checkpointed);
        QVERIFY(resumed.note.empty());
        QCOMPARE(resumed.config.model, std::string("segnet-tiny"));
        QCOMPARE(resumed.config.epochs, 2);
        QCOMPARE(resumed.config.runDir, path("done"));
    }

    void overridesReplaceTheRecordedValues()
    {
        ResumedRun::Overrides overrides;
        overrides.epochs = 5;
        overrides.device = "cpu:0";
        overrides.maxIterations = 7;
        overrides.threads = 2;
        overrides.timeBudgetSeconds = 90;
        const ResumedRun resumed = ResumedRun::of(path("done"), overrides);
        QCOMPARE(resumed.config.epochs, 5);
        QCOMPARE(resumed.config.device, std::string("cpu:0"));
        QCOMPARE(resumed.config.maxIterations, std::int64_t(7));
        QCOMPARE(resumed.config.threads, 2);
        QCOMPARE(resumed.config.timeBudgetSeconds, 90.0);
    }

    // --epochs is the run's total: at or below the epochs done it would train nothing.
    void epochsAlreadyTrainedAreRefused()
    {
        ResumedRun::Overrides overrides;
        overrides.epochs = 2;
        try {
            ResumedRun::of(path("done"), overrides);
            QFAIL("resuming to 2 epochs of a run that trained 2 was accepted");
        } catch (const EngineError& error) {
            const QString said = QString::fromStdString(error.what());
            QVERIFY2(said.contains(QStringLiteral("last.pt")) && said.contains(QStringLiteral("has trained 2 epoch(s)")),
                     qPrintable(said));
        }
    }

    // A run killed before its first checkpoint has only config.json: it starts again, as itself.
    void aRunWithoutACheckpointStartsAgain()
    {
        fs::copy(path("done"), path("early"), fs::copy_options::recursive);
        fs::remove_all(segstudio::run::RunLayout(path("early")).checkpointsFolder());
        const ResumedRun resumed = ResumedRun::of(path("early"), {});
        QVERIFY(!resumed.checkpointed);
        QCOMPARE(resumed.config.model, std::string("segnet-tiny"));
        QCOMPARE(resumed.config.runDir, path("early"));
        QVERIFY2(QString::fromStdString(resumed.note).contains(QStringLiteral("starting it again")),
                 resumed.note.c_str());
    }

    void anEmptyFolderIsNothingToResume()
    {
        fs::create_directories(path("empty"));
        QVERIFY_THROWS_EXCEPTION(EngineError, ResumedRun::of(path("empty"), {}));
        try {
            ResumedRun::of(path("empty"), {});
        } catch (const EngineError& error) {
            QVERIFY(QString::fromStdString(error.what()).startsWith(QString::fromStdString(path("empty"))));
        }
    }

private:
    TrainConfig config(const std::string& run, int epochs) const
    {
        TrainConfig c = TrainConfig::segnetRecipe();
        c.model = "segnet-tiny";
        c.trainPack = path("train.pack");
        c.runDir = path(run);
        c.epochs = epochs;
        c.batchSize = 4;
        c.device = "cpu";
        c.threads = 1;
        return c;
    }
    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }

    QTemporaryDir m_dir;
};

QTEST_APPLESS_MAIN(TestResumedRun)
#include "test_ResumedRun.moc"
