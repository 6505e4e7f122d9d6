// Issue 65.1: the training log's window, out of Trainer and tested alone: the mean loss of the
// steps since the last line, the logged step's accuracy, images per second by the clock, and a
// new window after each line.
#include "engine/distributed/Replicas.h"
#include "engine/training/TrainingLog.h"

#include <QtTest>

using namespace segstudio::engine;

class TestTrainingLog : public QObject {
    Q_OBJECT

private slots:
    void aLineIsTheWindowsMeans()
    {
        const Replicas one(nullptr, torch::kCPU);
        double now = 100.0;
        TrainingLog log(one, torch::kCPU, [&now] { return now; });
        log.count(torch::tensor(1.0f), 8, false, 0, 0);
        log.count(torch::tensor(2.0f), 8, false, 0, 0);
        log.count(torch::tensor(3.0f), 8, true, 90, 100);
        now += 2.0;
        const auto figures = log.figures();
        QCOMPARE(figures.loss, 2.0);
        QCOMPARE(figures.accuracy, 0.9);
        QCOMPARE(figures.imagesPerSecond, 12.0);
        QVERIFY(figures.gpus.empty());  // a CPU run samples no GPU

        // The next line counts from there.
        log.count(torch::tensor(0.5f), 4, true, 10, 40);
        now += 4.0;
        const auto next = log.figures();
        QCOMPARE(next.loss, 0.5);
        QCOMPARE(next.accuracy, 0.25);
        QCOMPARE(next.imagesPerSecond, 1.0);
    }

    void anEmptyWindowSaysNothingWrong()
    {
        const Replicas one(nullptr, torch::kCPU);
        double now = 5.0;
        TrainingLog log(one, torch::kCPU, [&now] { return now; });
        const auto figures = log.figures();  // no time passed, no step
        QCOMPARE(figures.loss, 0.0);
        QCOMPARE(figures.accuracy, 0.0);
        QCOMPARE(figures.imagesPerSecond, 0.0);
    }
};

QTEST_APPLESS_MAIN(TestTrainingLog)
#include "test_TrainingLog.moc"
