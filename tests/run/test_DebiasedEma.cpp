#include "run/DebiasedEma.h"

#include <QTest>

#include <cmath>
#include <limits>

using segstudio::run::DebiasedEma;

namespace {

// TensorBoard's smoothing as its dashboard computes it (tf_backend's "resolveSmoothedData"),
// written out independently here: last = last * w + (1 - w) * y; smoothed = last / (1 - w^n).
std::vector<double> tensorBoardReference(const std::vector<double>& values, double weight)
{
    std::vector<double> out;
    double last = 0.0;
    int accumulated = 0;
    for (double y : values) {
        if (!std::isfinite(y)) {
            out.push_back(y);
            continue;
        }
        last = last * weight + (1 - weight) * y;
        ++accumulated;
        out.push_back(last / (1 - std::pow(weight, accumulated)));
    }
    return out;
}

}  // namespace

class TestDebiasedEma : public QObject {
    Q_OBJECT

private slots:
    void matchesTensorBoard_data()
    {
        QTest::addColumn<double>("weight");
        QTest::newRow("none") << 0.0;
        QTest::newRow("default") << 0.6;
        QTest::newRow("heavy") << 0.95;
    }

    void matchesTensorBoard()
    {
        QFETCH(double, weight);
        std::vector<double> values;
        for (int i = 0; i < 200; ++i)
            values.push_back(2.0 * std::exp(-i / 50.0) + 0.3 * std::sin(i * 1.7));
        values[17] = std::numeric_limits<double>::quiet_NaN();
        const auto ours = DebiasedEma::smooth(values, weight);
        const auto reference = tensorBoardReference(values, weight);
        QCOMPARE(ours.size(), reference.size());
        for (std::size_t i = 0; i < ours.size(); ++i) {
            if (std::isnan(reference[i])) {
                QVERIFY(std::isnan(ours[i]));
                continue;
            }
            QVERIFY2(std::abs(ours[i] - reference[i]) < 1e-12, qPrintable(QString::number(i)));
        }
    }

    // The point of the bias correction: the first smoothed value is the first value, not a
    // fraction of it, and a constant curve stays constant.
    void noStartUpBias()
    {
        DebiasedEma ema(0.9);
        QCOMPARE(ema.add(5.0), 5.0);
        for (int i = 0; i < 10; ++i)
            QVERIFY(std::abs(ema.add(5.0) - 5.0) < 1e-12);
        ema.reset();
        QCOMPARE(ema.add(-1.0), -1.0);
    }
};

QTEST_GUILESS_MAIN(TestDebiasedEma)
#include "test_DebiasedEma.moc"
