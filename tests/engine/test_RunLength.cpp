// Issue 65.1: how long a run is, out of Trainer and tested alone: a run of epochs, an iteration
// limit, a budgeted run before and after its plan, the epoch a finished run reports, and rank 0's
// plan adopted by every rank.
#include "engine/input/CropSchedule.h"
#include "engine/training/LrSchedule.h"
#include "engine/training/RunLength.h"
#include "engine/training/TrainConfig.h"

#include <QtTest>

#include <limits>

using namespace segstudio::engine;

class TestRunLength : public QObject {
    Q_OBJECT

private slots:
    void epochsMakeTheEnd()
    {
        TrainConfig config;
        config.epochs = 12;
        const RunLength length(config, 5);
        QVERIFY(!length.budgeted());
        QCOMPARE(length.totalIterations(), std::int64_t(60));
        QCOMPARE(length.epochLimit(), 12);
        QCOMPARE(length.announcedEpochs(), 12);
        QVERIFY(length.validatesEachPeriod());
    }

    void theIterationLimitCapsTheEnd()
    {
        TrainConfig config;
        config.epochs = 12;
        config.maxIterations = 7;
        QCOMPARE(RunLength(config, 5).totalIterations(), std::int64_t(7));
    }

    // After its last epoch the counter points past it: a finished run says "12 of 12".
    void aFinishedRunReportsItsLastEpoch()
    {
        TrainConfig config;
        config.epochs = 12;
        const RunLength length(config, 5);
        QCOMPARE(length.recordedEpoch(0), 1);
        QCOMPARE(length.recordedEpoch(11), 12);
        QCOMPARE(length.recordedEpoch(12), 12);
    }

    void aBudgetedRunHasNoEndBeforeItsPlan()
    {
        TrainConfig config;
        config.timeBudgetSeconds = 60;
        RunLength length(config, 5);
        QVERIFY(length.budgeted());
        QCOMPARE(length.totalIterations(), BudgetController::kNoEnd);
        QCOMPARE(length.epochLimit(), std::numeric_limits<int>::max());
        QCOMPARE(length.announcedEpochs(), 0);
        QCOMPARE(length.recordedEpoch(40), 41);
        QVERIFY(!length.plan());
    }

    // A plan restored from a checkpoint (what a resume starts from) decides the end and how often
    // epochs end with a validation.
    void aBudgetedRunFollowsItsPlan()
    {
        TrainConfig config;
        config.timeBudgetSeconds = 60;
        config.valEpochs = 1;
        RunLength length(config, 5);
        LrSchedule schedule(config, 5, BudgetController::kNoEnd);
        const CropSchedule crops(32, 32, 1.0);
        BudgetController::Settings settings;
        settings.budgetSeconds = 60;
        settings.iterationsPerEpoch = 5;
        length.setBudget(std::make_unique<BudgetController>(settings, schedule, crops, BudgetController::Hooks{}));
        length.budget()->restore({{"plannedIterations", 23}, {"plannedEpochs", 5}, {"validateOnlyAtEnd", true},
                                  {"validationEpochs", 2}, {"firstPlannedIterations", 20}, {"secondsPerIteration", 1.0},
                                  {"secondsPerValidation", 3.0}, {"scheduleFrom", 0}, {"scheduleProgress", 0.0},
                                  {"scheduleTotal", 23}, {"warmup", 0}});
        QVERIFY(length.plan());
        QCOMPARE(length.totalIterations(), std::int64_t(23));
        QCOMPARE(length.announcedEpochs(), 5);
        QVERIFY(!length.validatesEachPeriod());
        QCOMPARE(length.validationEpochs(), 2);
    }

    void everyRankAdoptsTheLeadersPlan()
    {
        TrainConfig config;
        config.timeBudgetSeconds = 60;
        const RunLength length(config, 5);
        BudgetPlan leaders;
        leaders.totalIterations = 21;
        leaders.validateOnlyAtEnd = true;
        leaders.validationEpochs = 3;
        BudgetPlan mine;
        mine.totalIterations = 40;
        mine.epochs = 8;
        length.adoptLeadersPlan(mine, RunLength::figuresOf(leaders));
        QCOMPARE(mine.totalIterations, std::int64_t(21));
        QCOMPARE(mine.epochs, 5);  // 21 steps of 5 a epoch: the fifth epoch is begun
        QVERIFY(mine.validateOnlyAtEnd);
        QCOMPARE(mine.validationEpochs, 3);
    }
};

QTEST_GUILESS_MAIN(TestRunLength)
#include "test_RunLength.moc"
