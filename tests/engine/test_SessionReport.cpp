// Issue 65.1: what a training session says, out of Trainer and tested alone: the words the GUI,
// the CLI's tests and users' scripts look for, from plain figures.
#include "engine/training/SessionReport.h"

#include <QtTest>

#include <limits>

using namespace segstudio::engine;

class TestSessionReport : public QObject {
    Q_OBJECT

private slots:
    void theStartNamesTheRanksAndPrecision()
    {
        SessionReport::Start start{"segnet-tiny", "cpu", "gloo", 2, "bf16", 8, 32, 48, 4, 2, 1, 6};
        QCOMPARE(SessionReport::started(start),
                 std::string("training segnet-tiny on cpu x 2 ranks (gloo) in bf16: 8 images 32x48, 4 classes, "
                             "2 batches/epoch, from epoch 2 iteration 6"));
        start.backend.clear();
        start.amp = "none";
        QCOMPARE(SessionReport::started(start), std::string("training segnet-tiny on cpu: 8 images 32x48, 4 classes, "
                                                            "2 batches/epoch, from epoch 2 iteration 6"));
    }

    void theEndSaysWhatWasDone()
    {
        QCOMPARE(SessionReport::finished(3, 12, 0.25, 0.5, std::nullopt),
                 std::string("finished: 3 epochs, 12 iterations, last loss 0.2500, best val mIoU 0.5000"));
        QCOMPARE(SessionReport::finished(1, 2, 1.0, std::nullopt, SessionReport::Budget{59.6, 60.0, 40}),
                 std::string("finished: 1 epochs, 2 iterations, last loss 1.0000, no validation (no validation pack); "
                             "60 s of the 60 s budget (first planned 40 iterations)"));
    }

    void aStopSaysHowToGoOn()
    {
        QCOMPARE(SessionReport::stopped(1, 7, "/runs/a"),
                 std::string("stopped at epoch 2 iteration 7; checkpoint written, continue with --resume /runs/a"));
    }

    void aDivergenceNamesTheLossAndTheStep()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(SessionReport::diverged(nan, 4, 0).rfind("loss became NaN at iteration 5 (epoch 1)", 0) == 0);
        QVERIFY(SessionReport::diverged(std::numeric_limits<double>::infinity(), 4, 2).rfind("loss became infinite", 0) == 0);
        QVERIFY(SessionReport::diverged(0.3, 4, 2).find("NaN/infinite on another rank") != std::string::npos);
    }

    void eachOutcomeHasItsState()
    {
        QCOMPARE(SessionReport::stateOf(TrainOutcome::Status::Finished), segstudio::run::RunState::Finished);
        QCOMPARE(SessionReport::stateOf(TrainOutcome::Status::Stopped), segstudio::run::RunState::Stopped);
        QCOMPARE(SessionReport::stateOf(TrainOutcome::Status::Diverged), segstudio::run::RunState::Failed);
    }
};

QTEST_GUILESS_MAIN(TestSessionReport)
#include "test_SessionReport.moc"
