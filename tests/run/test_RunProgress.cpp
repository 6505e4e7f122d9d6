#include "run/RunProgress.h"

#include <QTest>

using segstudio::run::MetricsRecord;
using segstudio::run::RunProgress;
using segstudio::run::RunState;
using Kind = segstudio::run::MetricsRecord::Kind;

namespace {

MetricsRecord runRecord(std::int64_t iteration, int epochs = 10, std::int64_t perEpoch = 10)
{
    MetricsRecord record;
    record.kind = Kind::Run;
    record.iteration = iteration;
    record.run.model = "deeplabv3plus";
    record.run.device = "cpu";
    record.run.epochs = epochs;
    record.run.iterationsPerEpoch = perEpoch;
    record.run.totalIterations = epochs * perEpoch;
    record.run.started = "2026-11-23T10:00:00Z";
    return record;
}

MetricsRecord train(std::int64_t iteration, double seconds, double lr = 1e-3)
{
    auto record = MetricsRecord::train(int(iteration / 10) + 1, iteration);
    record.elapsedSeconds = seconds;
    record.learningRate = lr;
    return record;
}

MetricsRecord val(int epoch, double meanIoU, double seconds)
{
    auto record = MetricsRecord::val(epoch, epoch * 10);
    record.meanIoU = meanIoU;
    record.elapsedSeconds = seconds;
    return record;
}

}  // namespace

class TestRunProgress : public QObject {
    Q_OBJECT

private slots:
    // Issue 27, item 7: a session bounded by --max-iterations plans fewer epochs than configured,
    // and a run shorter than the log interval still knows its learning rate from its last step.
    // Issue 47.14: "Iteration 10307 of 10264" on a finished budgeted run (its last re-plan, under
    // 1 %, was not recorded), and "Iteration 10 of 386" while the stop reason said iteration 13.
    void theCountersAgreeWithTheRunsEnd()
    {
        RunProgress budgeted;
        budgeted.add(runRecord(0, 100, 100));
        budgeted.add(MetricsRecord::plan(1, 10, 10264, 103, 1800.0, {}));
        budgeted.add(train(10300, 1790.0));
        budgeted.add(MetricsRecord::stateChange(RunState::Finished, 103, 10307, "finished"));
        QCOMPARE(budgeted.iteration(), std::int64_t(10307));
        QCOMPARE(budgeted.totalIterations(), std::int64_t(10307));
        QCOMPARE(budgeted.fractionDone(), 1.0);
        // Issue 65.4: finished short of its last plan ("Iteration 15781 of 15840", "Epoch 351 of
        // 352", 99.6 % beside "State: Finished"): a finished run's totals are what it did.
        RunProgress short_;
        short_.add(runRecord(0, 400, 45));
        short_.add(MetricsRecord::plan(1, 10, 15840, 352, 1800.0, {}));
        short_.add(train(15781, 1799.0));
        short_.add(MetricsRecord::stateChange(RunState::Finished, 351, 15781, "finished"));
        QCOMPARE(short_.totalIterations(), std::int64_t(15781));
        QCOMPARE(short_.plannedEpochs(), 351);
        QCOMPARE(short_.fractionDone(), 1.0);

        RunProgress stopped;
        stopped.add(runRecord(0, 10, 386));
        stopped.add(train(10, 5.0));
        stopped.add(MetricsRecord::stateChange(RunState::Stopped, 1, 13, "stopped at iteration 13"));
        QCOMPARE(stopped.iteration(), std::int64_t(13));
        QCOMPARE(stopped.totalIterations(), std::int64_t(3860));
    }

    void plannedEpochsFollowAnIterationLimit()
    {
        RunProgress progress;
        auto bounded = runRecord(6, 100, 2);
        bounded.run.totalIterations = 9;  // resumed at 6 with --max-iterations 9
        progress.add(bounded);
        QCOMPARE(progress.epochs(), 100);
        QCOMPARE(progress.plannedEpochs(), 5);
        QVERIFY(!progress.learningRate());
        progress.add(train(9, 3.0, 2e-4));
        QCOMPARE(*progress.learningRate(), 2e-4);
        RunProgress full;
        full.add(runRecord(0, 10, 10));
        QCOMPARE(full.plannedEpochs(), 10);
    }

    // A synthetic log at 2 s per iteration: the ETA is the remaining iterations at that pace.
    void etaFromTheSessionsPace()
    {
        RunProgress progress;
        progress.add(runRecord(0));
        progress.add(MetricsRecord::stateChange(RunState::Starting, 1, 0));
        QVERIFY(!progress.etaSeconds());
        progress.add(MetricsRecord::stateChange(RunState::Training, 1, 0));
        progress.add(train(5, 10.0));
        QVERIFY(!progress.etaSeconds());  // one point is no pace
        progress.add(train(10, 20.0));
        QCOMPARE(*progress.etaSeconds(), 90 * 2.0);
        progress.add(val(1, 0.3, 26.0));  // validation time counts: it will come again
        progress.add(train(20, 46.0));
        QCOMPARE(*progress.etaSeconds(), 80 * (46.0 - 10.0) / 15.0);
        QCOMPARE(progress.iteration(), std::int64_t(20));
        QCOMPARE(progress.fractionDone(), 0.2);
        QCOMPARE(progress.epochsDone(), 2);
        QCOMPARE(progress.elapsedSeconds(), 46.0);
        QCOMPARE(*progress.learningRate(), 1e-3);
        QVERIFY(progress.state() == RunState::Training);
    }

    // A resumed session has its own pace (another machine, other devices); the time before the
    // resume must not stretch it.
    void resumeStartsANewPace()
    {
        RunProgress progress;
        progress.add(runRecord(0));
        progress.add(train(10, 100.0));
        progress.add(train(20, 200.0));
        progress.add(MetricsRecord::stateChange(RunState::Stopped, 3, 20, "checkpoint written"));
        QVERIFY(progress.state() == RunState::Stopped);
        QCOMPARE(progress.reason(), std::string("checkpoint written"));
        QVERIFY(!progress.etaSeconds());  // an ended run has no ETA
        auto resumed = runRecord(20);
        resumed.run.started = "later";
        progress.add(resumed);
        QVERIFY(progress.state() == RunState::Starting);
        QCOMPARE(progress.started(), std::string("2026-11-23T10:00:00Z"));  // the run's, not the session's
        progress.add(train(30, 210.0));
        progress.add(train(40, 220.0));
        QCOMPARE(*progress.etaSeconds(), 60 * 1.0);
    }

    void bestValidationAndItsEpoch()
    {
        RunProgress progress;
        progress.add(runRecord(0));
        progress.add(val(1, 0.30, 1));
        progress.add(val(2, 0.45, 2));
        progress.add(val(3, 0.40, 3));
        QCOMPARE(*progress.bestMeanIoU(), 0.45);
        QCOMPARE(progress.bestEpoch(), 2);
        QCOMPARE(*progress.lastMeanIoU(), 0.40);
        progress.add(MetricsRecord::stateChange(RunState::Validating, 4, 40));
        QVERIFY(progress.state() == RunState::Validating);
        progress.add(MetricsRecord::stateChange(RunState::Failed, 4, 40, "out of memory"));
        QVERIFY(progress.state() == RunState::Failed);
        QCOMPARE(progress.reason(), std::string("out of memory"));
    }

    // Runs written before state records existed (SegStudio <= 0.1: run, train and val only).
    void stateWithoutStateRecords()
    {
        RunProgress progress;
        QVERIFY(progress.state() == RunState::Starting);
        progress.add(runRecord(0, 2, 10));
        QVERIFY(progress.state() == RunState::Starting);
        progress.add(train(10, 1));
        QVERIFY(progress.state() == RunState::Training);
        progress.add(train(20, 2));
        progress.add(val(2, 0.5, 2));  // iteration 20 of 20
        QVERIFY(progress.state() == RunState::Finished);
        QVERIFY(!progress.etaSeconds());
        RunProgress legacy;  // no run record either: no totals
        legacy.add(train(10, 1));
        QVERIFY(legacy.state() == RunState::Training);
        QCOMPARE(legacy.fractionDone(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestRunProgress)
#include "test_RunProgress.moc"
