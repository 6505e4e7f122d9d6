#include "TestPacks.h"
#include "engine/runtime/StopFlag.h"
#include "engine/training/BudgetController.h"
#include "pack/PackReader.h"
#include "engine/training/Trainer.h"
#include "run/MetricsReader.h"
#include "run/RunLayout.h"
#include "run/RunProgress.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace segstudio::engine;
namespace fs = std::filesystem;
namespace run = segstudio::run;

// A time-budgeted run on a fake clock (every step takes one second of it, validation none): it
// plans from its measured pace, ends at the budget with its schedule at its floor, records what
// it planned, and a run stopped half-way and resumed after a long pause ends at the same budget
// of training time with one clean curve.
class TestTrainerBudget : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        segstudio::enginetest::writeStripePack(path("train.pack"), 8, 32, 32, 4, 3);
        segstudio::enginetest::writeStripePack(path("val.pack"), 2, 32, 32, 4, 4);
        segstudio::enginetest::writeStripePack(path("train64.pack"), 8, 64, 64, 4, 5);
    }

    // Issue 65.1: a training's budget settings, out of Trainer: the config's figures, and the
    // first guess of a validation's cost: the validation images per rank and batch, their pixels
    // against a training step's (a crop's when training on crops).
    void budgetSettingsComeFromTheConfigAndThePacks()
    {
        TrainConfig config;
        config.timeBudgetSeconds = 90;
        config.valEpochs = 3;
        config.logInterval = 5;
        config.warmupIterations = 7;
        config.batchSize = 2;
        const segstudio::pack::PackReader train(path("train64.pack")), val(path("val.pack"));
        auto settings = BudgetController::settingsFor(config, train, &val, 1, 4);
        QCOMPARE(settings.budgetSeconds, 90.0);
        QCOMPARE(settings.iterationsPerEpoch, std::int64_t(4));
        QCOMPARE(settings.valEpochs, 3);
        QCOMPARE(settings.logInterval, 5);
        QCOMPARE(settings.warmupIterations, std::int64_t(7));
        QVERIFY(settings.validates);
        // 2 val images of 32x32, batch 2, one rank: one step of a quarter of a 64x64 step's pixels.
        QCOMPARE(settings.validationStepsGuess, 0.25);
        config.cropHeight = config.cropWidth = 16;  // crops of 16x16: a val step is 4 of them
        QCOMPARE(BudgetController::settingsFor(config, train, &val, 1, 4).validationStepsGuess, 4.0);
        QCOMPARE(BudgetController::settingsFor(config, train, &val, 2, 4).validationStepsGuess, 2.0);  // a rank each
        settings = BudgetController::settingsFor(config, train, nullptr, 1, 4);
        QVERIFY(!settings.validates);
        QCOMPARE(settings.validationStepsGuess, 0.0);
    }

    // Progressive crops in a budgeted run: the crops grow in four stages as the run's progress
    // (the schedule's, laid over the plan) passes each quarter, the last stage on the full crop,
    // and the run still ends at its budget.
    void progressiveCropsGrowToTheFullCropByTheEnd()
    {
        double now = 0.0;
        TrainConfig c = config("progressive");
        c.trainPack = path("train64.pack");
        c.cropHeight = 64;
        c.cropWidth = 64;
        c.cropStartScale = 0.5;
        Trainer trainer(c);
        trainer.setClock([&now] { return now; });
        trainer.setIterationHook([&now](std::int64_t) { now += 1.0; });
        const TrainOutcome outcome = trainer.run();
        QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
        QVERIFY2(now <= kBudget, qPrintable(QString::number(now)));

        std::ifstream log(run::RunLayout(path("progressive")).logFile());
        std::vector<std::pair<int, int>> crops;  // side, iteration
        for (std::string line; std::getline(log, line);) {
            int height = 0, width = 0, iteration = 0;
            if (std::sscanf(line.c_str(), "crops %dx%d from iteration %d", &height, &width, &iteration) == 3) {
                QCOMPARE(height, width);
                crops.emplace_back(height, iteration);
            }
        }
        QCOMPARE(int(crops.size()), 4);
        const std::vector<int> sides{32, 40, 56, 64};
        for (std::size_t i = 0; i < crops.size(); ++i) {
            QCOMPARE(crops[i].first, sides[i]);
            if (i > 0)
                QVERIFY(crops[i].second > crops[i - 1].second);
        }
        QVERIFY2(crops.back().second < outcome.iterations, "the full crop trains the last stage");
    }

    void runEndsAtTheBudgetWithItsScheduleDone()
    {
        double now = 0.0;
        Trainer trainer(config("straight"));
        trainer.setClock([&now] { return now; });
        trainer.setIterationHook([&now](std::int64_t) { now += 1.0; });
        const TrainOutcome outcome = trainer.run();
        QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
        QVERIFY2(now <= kBudget && now > kBudget - 2 * kLogInterval, qPrintable(QString::number(now)));
        QCOMPARE(double(outcome.iterations), now);
        QVERIFY(outcome.validated);
        QVERIFY2(outcome.message.find("of the 40 s budget") != std::string::npos, outcome.message.c_str());

        const auto records = readRecords("straight");
        std::int64_t plannedEnd = 0;
        double lastRate = 0.0;
        for (const auto& record : records) {
            if (record.kind == run::MetricsRecord::Kind::Plan)
                plannedEnd = record.run.totalIterations;
            if (record.kind == run::MetricsRecord::Kind::Train && record.learningRate)
                lastRate = *record.learningRate;
        }
        QCOMPARE(plannedEnd, outcome.iterations);  // what was planned is what happened
        QVERIFY2(lastRate < 0.02 * kRate, qPrintable(QString::number(lastRate)));  // the cosine ran its course
        QCOMPARE(records.front().run.timeBudgetSeconds, kBudget);

        run::RunProgress progress;
        progress.add(records);
        QCOMPARE(progress.timeBudgetSeconds(), kBudget);
        QCOMPARE(progress.totalIterations(), outcome.iterations);
        m_straightIterations = outcome.iterations;
    }

    // A slow start (the first steps take 5 s, then 1 s) gives a short first plan; the run must
    // re-plan before that plan's end and use its budget, even with a log interval longer than
    // the whole first plan.
    void slowStartIsReplannedBeforeItsEnd()
    {
        double now = 0.0;
        TrainConfig slow = config("slow-start");
        slow.logInterval = 50;
        Trainer trainer(slow);
        trainer.setClock([&now] { return now; });
        trainer.setIterationHook([&now](std::int64_t iteration) { now += iteration <= 4 ? 5.0 : 1.0; });
        const TrainOutcome outcome = trainer.run();
        QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
        QVERIFY2(now <= kBudget && now > kBudget - 4, qPrintable(QString::number(now)));
    }

    void stoppedAndResumedRunEndsAtTheSameBudget()
    {
        double now = 0.0;
        {
            Trainer trainer(config("resumed"));
            trainer.setClock([&now] { return now; });
            trainer.setIterationHook([&now](std::int64_t iteration) {
                now += 1.0;
                if (iteration == 15)
                    requestStop();
            });
            const TrainOutcome stopped = trainer.run();
            clearStopRequest();
            QCOMPARE(int(stopped.status), int(TrainOutcome::Status::Stopped));
        }
        now += 1000.0;  // the machine was off: not training time
        auto resumed = Trainer::resume(path("resumed"));
        resumed->setClock([&now] { return now; });
        resumed->setIterationHook([&now](std::int64_t) { now += 1.0; });
        const TrainOutcome finished = resumed->run();
        QCOMPARE(int(finished.status), int(TrainOutcome::Status::Finished));
        QCOMPARE(finished.iterations, m_straightIterations);
        QVERIFY(now - 1000.0 <= kBudget);

        std::int64_t previous = -1;
        for (const auto& record : readRecords("resumed"))
            if (record.kind == run::MetricsRecord::Kind::Train) {
                QVERIFY(record.iteration > previous);  // one curve: nothing logged twice
                previous = record.iteration;
                QVERIFY(record.elapsedSeconds && *record.elapsedSeconds <= kBudget);
            }
        QCOMPARE(previous, m_straightIterations);
    }

    // Issue 46.8: a run that finished at its budget, resumed with a larger one, trains the rest
    // of the new budget (it used to end at once, "successfully").
    void aFinishedRunResumedWithALargerBudgetTrainsTheRest()
    {
        double now = 0.0;
        std::int64_t first = 0;
        {
            Trainer trainer(config("extended"));
            trainer.setClock([&now] { return now; });
            trainer.setIterationHook([&now](std::int64_t) { now += 1.0; });
            const TrainOutcome outcome = trainer.run();
            QCOMPARE(int(outcome.status), int(TrainOutcome::Status::Finished));
            first = outcome.iterations;
        }
        auto resumed = Trainer::resume(path("extended"), 0, nullptr, {}, -1, -1, 2 * kBudget);
        resumed->setClock([&now] { return now; });
        resumed->setIterationHook([&now](std::int64_t) { now += 1.0; });
        const TrainOutcome extended = resumed->run();
        QCOMPARE(int(extended.status), int(TrainOutcome::Status::Finished));
        QVERIFY2(extended.iterations > first + std::int64_t(kBudget / 2),
                 qPrintable(QStringLiteral("%1 after %2").arg(extended.iterations).arg(first)));
        QVERIFY2(now <= 2 * kBudget, qPrintable(QString::number(now)));
        QVERIFY2(extended.message.find("of the 80 s budget") != std::string::npos, extended.message.c_str());
        // It learns: the schedule goes on from the share of the budget already trained (the
        // cosine had reached its floor, 0), back at most to the middle of the curve.
        double highest = 0.0;
        for (const auto& record : readRecords("extended"))
            if (record.kind == run::MetricsRecord::Kind::Train && record.iteration > first && record.learningRate)
                highest = std::max(highest, *record.learningRate);
        QVERIFY2(highest > 0.3 * kRate && highest < 0.8 * kRate, qPrintable(QString::number(highest)));
    }

private:
    static constexpr double kBudget = 40.0;
    static constexpr int kLogInterval = 2;
    static constexpr double kRate = 1e-2;

    std::string path(const std::string& name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }

    TrainConfig config(const std::string& runName) const
    {
        TrainConfig c;
        c.model = "segnet-tiny";
        c.trainPack = path("train.pack");
        c.valPack = path("val.pack");
        c.runDir = path(runName);
        c.batchSize = 4;  // 2 steps per epoch
        c.device = "cpu";
        c.threads = 1;
        c.deterministic = true;
        c.learningRate = kRate;
        c.minLearningRate = 0.0;
        c.warmupIterations = 0;
        c.logInterval = kLogInterval;
        c.timeBudgetSeconds = kBudget;
        return c;
    }

    std::vector<run::MetricsRecord> readRecords(const std::string& runName) const
    {
        run::MetricsReader reader(run::RunLayout(path(runName)).metricsFile());
        std::vector<run::MetricsRecord> records;
        do {
            const auto chunk = reader.poll();
            records.insert(records.end(), chunk.begin(), chunk.end());
        } while (!reader.atEnd());
        return records;
    }

    QTemporaryDir m_dir;
    std::int64_t m_straightIterations = 0;
};

QTEST_GUILESS_MAIN(TestTrainerBudget)
#include "test_TrainerBudget.moc"
