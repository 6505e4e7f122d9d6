#include "engine/input/CropSchedule.h"
#include "engine/training/LrSchedule.h"
#include "engine/training/TimeBudgetPlanner.h"
#include "engine/training/TrainConfig.h"

#include <QtTest>

#include <cmath>

using namespace segstudio::engine;

// The time-budget planner on a fake clock: what it plans fits the budget, a run whose pace changes
// half-way still ends at the deadline, a resumed run gets what is left, and budgets too short for
// validation get a plan that says so. And the schedule laid over a changing plan.
class TestTimeBudgetPlanner : public QObject {
    Q_OBJECT

private:
    static TimeBudgetPlanner::Settings settings(double budget, double validationGuess = 5.0)
    {
        TimeBudgetPlanner::Settings s;
        s.budgetSeconds = budget;
        s.iterationsPerEpoch = 10;
        s.valEpochs = 1;
        s.validationSecondsGuess = validationGuess;
        return s;
    }

    // What a run ending at `end` takes from `position`, counted the way the trainer validates:
    // after every epoch's end from the position on (its own included: the trainer plans before
    // validating), and at the end if that is not an epoch's end.
    static double cost(std::int64_t position, std::int64_t end, double pace, double validation, bool everyEpoch)
    {
        double seconds = double(end - position) * pace;
        int validations = 0;
        if (everyEpoch)
            for (std::int64_t i = std::max<std::int64_t>(1, position); i <= end; ++i)
                validations += i % 10 == 0 ? 1 : 0;
        if (!everyEpoch || end % 10 != 0 || end == position)
            ++validations;
        return seconds + validations * validation;
    }

private slots:
    void planIsTheLongestRunThatFits()
    {
        TimeBudgetPlanner planner(settings(100.0, 0.4));  // 0.4 s a validation: 3.8 % after every epoch
        QVERIFY(!planner.hasPace());
        planner.observeTraining(4, 4.0);  // 1 s per step
        const BudgetPlan plan = planner.plan(3, 3.0);
        QVERIFY(!plan.validateOnlyAtEnd);
        QVERIFY2(plan.note.empty(), plan.note.c_str());
        QCOMPARE(plan.validationEpochs, 1);
        QVERIFY(cost(3, plan.totalIterations, 1.0, 0.4, true) <= 97.0);
        QVERIFY(cost(3, plan.totalIterations + 1, 1.0, 0.4, true) > 97.0);
        QCOMPARE(plan.epochs, int((plan.totalIterations + 9) / 10));
    }

    // The fake run: steps take 1 s (2 s from iteration 40 on: another program took the cores),
    // validations 1 s, a re-plan every 10 steps as the trainer does. It must end at
    // the deadline: no later than the budget, and short of it by less than the last window's time.
    void paceChangeMidRunStillEndsAtTheDeadline()
    {
        const double budget = 300.0;
        TimeBudgetPlanner planner(settings(budget, 1.0));
        double clock = 0.0;
        std::int64_t position = 0;
        std::int64_t end = std::numeric_limits<std::int64_t>::max();
        std::int64_t windowStart = 0;
        double windowClock = 0.0;
        std::vector<std::int64_t> ends;
        while (position < end) {
            clock += position < 40 ? 1.0 : 2.0;
            ++position;
            if (position % 10 == 0 && position < end) {
                planner.observeTraining(position - windowStart, clock - windowClock);
                const BudgetPlan plan = planner.plan(position, clock);
                QVERIFY(!plan.validateOnlyAtEnd);
                end = plan.totalIterations;
                ends.push_back(end);
                if (position < end) {
                    clock += 1.0;  // the epoch's validation
                    planner.observeValidation(1.0);
                }
                windowStart = position;
                windowClock = clock;
            }
        }
        clock += 1.0;  // the final validation
        QVERIFY2(clock <= budget, qPrintable(QString::number(clock)));
        QVERIFY2(clock > budget - 2 * 10 * 2.0, qPrintable(QString::number(clock)));
        QVERIFY(ends.front() > ends.back());  // the slowdown shortened the plan
    }

    // Progressive crops on the fake clock: a step costs its crop's share of a full-crop step (1 s),
    // the trainer reports full-crop-equivalent steps and the mean cost of the steps ahead, and the
    // crops follow the schedule's progress, which follows every re-plan. The first plan already
    // counts the dearer steps to come (within a few percent of where the run ends), and the run
    // ends at the deadline.
    void progressiveCropsEndAtTheDeadline()
    {
        const double budget = 600.0;
        TimeBudgetPlanner planner(settings(budget, 1.0));
        TrainConfig config;
        config.schedule = "cosine";
        config.warmupIterations = 0;
        LrSchedule schedule(config, 10, std::numeric_limits<std::int64_t>::max() / 4);
        const CropSchedule crops(180, 240, 0.5);
        double clock = 0.0, windowClock = 0.0, windowWork = 0.0;
        std::int64_t position = 0;
        std::int64_t end = std::numeric_limits<std::int64_t>::max();
        std::vector<std::int64_t> ends;
        std::vector<double> costs;
        while (position < end) {
            const double cost = crops.relativeCost(schedule.progress(position));
            costs.push_back(cost);
            clock += cost;
            windowWork += cost;
            ++position;
            if (position % 10 == 0 && position < end) {
                planner.observeTraining(windowWork, clock - windowClock);
                const BudgetPlan plan = planner.plan(position, clock, crops.meanCost(schedule.progress(position)));
                end = plan.totalIterations;
                schedule.replan(position, end);
                ends.push_back(end);
                if (position < end && (position / 10) % plan.validationEpochs == 0) {  // as planned
                    clock += 1.0;
                    planner.observeValidation(1.0);
                }
                windowClock = clock;
                windowWork = 0.0;
            }
        }
        clock += 1.0;
        QVERIFY2(clock <= budget, qPrintable(QString::number(clock)));
        QVERIFY2(clock > budget - 2 * 10 * 1.0, qPrintable(QString::number(clock)));
        QVERIFY2(std::abs(double(ends.front()) / double(ends.back()) - 1.0) < 0.05,
                 qPrintable(QString("first plan %1, end %2").arg(ends.front()).arg(ends.back())));
        QVERIFY(costs.front() < 0.5 && costs.back() == 1.0);  // small crops first, the full crop last
        // Planned as if every step cost what the first ones did, the first plan would have been
        // far longer than the run could be.
        TimeBudgetPlanner naive(settings(budget, 1.0));
        naive.observeTraining(10, 10 * costs.front());
        QVERIFY(double(naive.plan(10, 10 * costs.front()).totalIterations) > 1.5 * double(ends.back()));
    }

    void resumedRunPlansWhatIsLeft()
    {
        TimeBudgetPlanner planner(settings(100.0, 0.0));
        planner.observeTraining(10, 10.0);
        const BudgetPlan plan = planner.plan(60, 70.0);  // 70 s used by earlier sessions
        QCOMPARE(plan.totalIterations, std::int64_t(90));
        const BudgetPlan spent = planner.plan(60, 120.0);
        QCOMPARE(spent.totalIterations, std::int64_t(60));
        QVERIFY(spent.note.find("spent") != std::string::npos);
    }

    void budgetShorterThanOneValidationValidatesOnceAtTheEnd()
    {
        TimeBudgetPlanner planner(settings(30.0, 50.0));
        planner.observeTraining(3, 3.0);
        const BudgetPlan plan = planner.plan(4, 4.0);
        QVERIFY(plan.validateOnlyAtEnd);
        QVERIFY2(plan.note.find("shorter than one validation pass") != std::string::npos, plan.note.c_str());
        QCOMPARE(plan.totalIterations, std::int64_t(4 + 13));  // half of the 26 s left
    }

    // 2 s of validation after every 10 one-second steps would be 17 % of the time: every 4th
    // epoch (4.8 %) instead; 94 steps, the validations at steps 40 and 80 and at the end fill the
    // 100 s.
    void costlyValidationsAreThinnedOut()
    {
        TimeBudgetPlanner planner(settings(100.0, 2.0));
        planner.observeTraining(3, 3.0);
        planner.observeValidation(2.0);  // timed: a guess would bring the first validation forward
        const BudgetPlan plan = planner.plan(0, 0.0);
        QVERIFY(!plan.validateOnlyAtEnd);
        QCOMPARE(plan.validationEpochs, 4);
        QVERIFY2(plan.note.find("validating every 4 epochs") != std::string::npos, plan.note.c_str());
        QCOMPARE(plan.totalIterations, std::int64_t(94));
    }

    // On an H100 the guess of a pass was 10x its time (1 s against 0.1 s, 0.9 s an epoch): by the
    // guess alone (every 22nd epoch) a one-minute run's first curve point came after 28 s. Until a
    // pass is timed the first comes within a tenth of the planned epochs (63 here); once timed,
    // its time sets the period (every 3rd epoch: 3.6 %; every 2nd would be 5.3 %).
    void firstValidationComesEarlyUntilOneIsTimed()
    {
        TimeBudgetPlanner planner(settings(60.0, 1.0));
        planner.observeTraining(10, 0.9);
        const BudgetPlan guessed = planner.plan(3, 0.3);
        QCOMPARE(guessed.validationEpochs, 6);
        planner.observeValidation(0.1);
        QCOMPARE(planner.plan(60, 6.5).validationEpochs, 3);
    }

    // A pass guessed at more than 5 % of the whole budget is not spent early: by the guess, every
    // 114th epoch (6 / (6 + 114) = 5 %), so only the final validation in a run of ~94 epochs.
    void costlyFirstValidationIsNotBroughtForward()
    {
        TimeBudgetPlanner planner(settings(100.0, 6.0));
        planner.observeTraining(10, 1.0);
        QCOMPARE(planner.plan(0, 0.0).validationEpochs, 114);
    }

    // Near the limit the period does not flip with the pace's jitter: validating more often comes
    // back only when it would take well under 5 % of the time.
    void validationPeriodHoldsAgainstJitter()
    {
        TimeBudgetPlanner planner(settings(1000.0, 1.0));  // 1 s per validation, 10 steps per epoch
        planner.observeTraining(10, 5.5);                  // every 3rd epoch 5.7 %, every 4th 4.3 %
        QCOMPARE(planner.plan(0, 0.0).validationEpochs, 4);
        planner.observeTraining(10, 6.5);  // every 3rd 4.9 %: under the limit, not well under it
        QCOMPARE(planner.plan(10, 10.0).validationEpochs, 4);
        planner.observeTraining(10, 10.0);  // every 3rd 3.2 %
        QCOMPARE(planner.plan(20, 20.0).validationEpochs, 3);
    }

    void noValidationPackPlansTrainingOnly()
    {
        auto s = settings(50.0, 5.0);
        s.validates = false;
        TimeBudgetPlanner planner(s);
        planner.observeTraining(5, 10.0);  // 2 s per step
        QCOMPARE(planner.plan(0, 0.0).totalIterations, std::int64_t(25));
    }

    // The cosine laid over a plan that moves: no jump in the rate where it moves, the floor
    // reached exactly at the new end, and the rate falling all the way.
    void scheduleFollowsThePlanWithoutAJump()
    {
        TrainConfig config;
        config.learningRate = 0.1;
        config.minLearningRate = 0.001;
        config.schedule = "cosine";
        config.warmupIterations = 0;
        LrSchedule schedule(config, 10, 100);
        const double before = schedule.at(30);
        schedule.replan(30, 200);
        QVERIFY(std::abs(schedule.at(30) - before) < 1e-12);
        QVERIFY(std::abs(schedule.at(200) - 0.001) < 1e-12);
        double previous = schedule.at(30);
        for (std::int64_t i = 31; i <= 200; ++i) {
            QVERIFY(schedule.at(i) <= previous);
            previous = schedule.at(i);
        }
        schedule.replan(120, 150);  // shortened
        QVERIFY(std::abs(schedule.at(150) - 0.001) < 1e-12);
        QVERIFY(schedule.at(149) > 0.001);

        // What a checkpoint keeps brings the same rates back.
        LrSchedule restored(config, 10, 100);
        restored.setAnchor(schedule.anchor());
        for (std::int64_t i : {120, 130, 149, 150})
            QCOMPARE(restored.at(i), schedule.at(i));
    }
};

QTEST_GUILESS_MAIN(TestTimeBudgetPlanner)
#include "test_TimeBudgetPlanner.moc"
