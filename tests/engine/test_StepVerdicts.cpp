#include "engine/distributed/StepVerdicts.h"

#include <QtTest>

#include <limits>

using namespace segstudio::engine;

// Issue 48: a step's NaN and stop flags are posted on the device and read by the host a step late
// on a GPU (lag 1), at once on a CPU (lag 0); drain() reads them all before a checkpoint.
class TestStepVerdicts : public QObject {
    Q_OBJECT

private slots:
    void aCpuReadsAtOnce();
    void aLagOfOneReadsTheStepBefore();
    void drainReadsWhatIsLeftInOrder();

private:
    static torch::Tensor loss(double value) { return torch::tensor(value, torch::kDouble); }
};

void TestStepVerdicts::aCpuReadsAtOnce()
{
    StepVerdicts verdicts(torch::kCPU, nullptr);
    verdicts.post(0, 0, loss(1.5), false);
    const auto verdict = verdicts.take();
    QVERIFY(verdict.has_value());
    QCOMPARE(verdict->iteration, std::int64_t(0));
    QVERIFY(!verdict->nonFinite);
    QVERIFY(!verdict->stop);
    QCOMPARE(verdict->loss.item<double>(), 1.5);
    QVERIFY(verdicts.empty());
}

void TestStepVerdicts::aLagOfOneReadsTheStepBefore()
{
    StepVerdicts verdicts(torch::kCPU, nullptr, 1);
    verdicts.post(7, 3, loss(std::numeric_limits<double>::quiet_NaN()), false);
    QVERIFY(!verdicts.take().has_value());  // the device may still be running it
    verdicts.post(8, 4, loss(0.5), true);
    const auto first = verdicts.take();
    QVERIFY(first.has_value());
    QCOMPARE(first->iteration, std::int64_t(7));
    QCOMPARE(first->position, std::int64_t(3));
    QVERIFY(first->nonFinite);
    QVERIFY(!first->stop);
    QVERIFY(!verdicts.take().has_value());
}

void TestStepVerdicts::drainReadsWhatIsLeftInOrder()
{
    StepVerdicts verdicts(torch::kCPU, nullptr, 2);
    verdicts.post(1, 1, loss(std::numeric_limits<double>::infinity()), false);
    verdicts.post(2, 2, loss(0.25), true);
    QVERIFY(!verdicts.take().has_value());
    const auto first = verdicts.drain();
    const auto second = verdicts.drain();
    QVERIFY(first && second);
    QCOMPARE(first->iteration, std::int64_t(1));
    QVERIFY(first->nonFinite);
    QCOMPARE(second->iteration, std::int64_t(2));
    QVERIFY(!second->nonFinite);
    QVERIFY(second->stop);
    QVERIFY(!verdicts.drain().has_value());
}

QTEST_GUILESS_MAIN(TestStepVerdicts)
#include "test_StepVerdicts.moc"
