#include "engine/training/ValidationCadence.h"

#include <QtTest>
#include <algorithm>
#include <vector>

using namespace segstudio::engine;

namespace {

// A budgeted run's validation period as its re-plans move it: a different period every epoch,
// between 13 and 25 (issue 47.3's CamVid run planned "every 13-25 epochs").
int plannedPeriod(int epoch) { return 13 + (epoch * 7 + epoch / 3) % 13; }

struct Gap {
    int from, to, largestPlanned;
};

// The epochs that validate under a rule, and each gap with the largest period planned inside it.
template <typename Due>
std::vector<Gap> gapsOf(int epochs, Due due)
{
    std::vector<Gap> gaps;
    int last = 0, largest = 0;
    for (int done = 1; done <= epochs; ++done) {
        const int period = plannedPeriod(done);
        largest = std::max(largest, period);
        if (due(done, period)) {
            gaps.push_back({last, done, largest});
            last = done;
            largest = 0;
        }
    }
    return gaps;
}

}  // namespace

// Validations follow a period that the planner moves every epoch: no gap longer than the largest
// period planned inside it (the goal allows 1.5 times it). Multiples of the period of the
// moment, the old rule, miss most validations on the same plan.
class TestValidationCadence : public QObject {
    Q_OBJECT

private slots:
    void aMovingPeriodNeverStretchesAGap()
    {
        ValidationCadence cadence;
        const auto gaps = gapsOf(230, [&](int done, int period) {
            if (!cadence.dueAfterEpoch(done, period))
                return false;
            cadence.validated(done);
            return true;
        });
        QVERIFY(gaps.size() >= 230 / 25);
        for (const Gap& gap : gaps)
            QVERIFY2(gap.to - gap.from <= gap.largestPlanned,
                     qPrintable(QStringLiteral("%1 to %2 with periods up to %3").arg(gap.from).arg(gap.to).arg(gap.largestPlanned)));
    }

    void multiplesOfTheMomentsPeriodMissValidations()
    {
        const auto gaps = gapsOf(230, [](int done, int period) { return done % period == 0; });
        const bool stretched = std::any_of(gaps.begin(), gaps.end(),
                                           [](const Gap& gap) { return gap.to - gap.from > 1.5 * gap.largestPlanned; });
        QVERIFY(stretched || gaps.size() < 230 / 25);
    }

    void aResumeCountsFromWhereItStarts()
    {
        ValidationCadence cadence(40);  // resumed after epoch 40
        QVERIFY(!cadence.dueAfterEpoch(41, 5));
        QVERIFY(cadence.dueAfterEpoch(45, 5));
        cadence.validated(45);
        QCOMPARE(cadence.lastEpoch(), 45);
        QVERIFY(!cadence.dueAfterEpoch(46, 2));
        QVERIFY(cadence.dueAfterEpoch(46, 1));
        QVERIFY(cadence.dueAfterEpoch(46, 0));  // a period below one is every epoch
    }
};

QTEST_GUILESS_MAIN(TestValidationCadence)
#include "test_ValidationCadence.moc"
