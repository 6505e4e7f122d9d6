// Issue 65.1: how a run validates and what counts as its best, out of Trainer and tested alone.
#include "engine/training/TrainingValidation.h"

#include <QtTest>

#include <limits>

using namespace segstudio::engine;

class TestTrainingValidation : public QObject {
    Q_OBJECT

private slots:
    void aCpuValidatesOneImageAtATimeAGpuInBatches()
    {
        TrainConfig config;
        config.batchSize = 8;
        TrainingPrecision precision;
        precision.amp = "bf16";
        precision.channelsLast = true;
        auto settings = TrainingValidation::settingsFor(config, torch::kCPU, precision, {1.0, 2.0}, nullptr);
        QCOMPARE(settings.batchSize, 1);
        QVERIFY(!settings.pinMemory);
        QCOMPARE(settings.amp, std::string("bf16"));
        QVERIFY(settings.channelsLast);
        QVERIFY(settings.correction.active());  // unequal class weights: predictions are corrected
        settings = TrainingValidation::settingsFor(config, torch::Device(torch::kCUDA, 0), precision, {1.0, 1.0}, nullptr);
        QCOMPARE(settings.batchSize, 8);
        QVERIFY(settings.pinMemory);
    }

    void onlyAFiniteLossCanBeBest()
    {
        SegmentationMetrics metrics;
        metrics.meanIoU = 0.4;
        metrics.loss = 0.9;
        QVERIFY(TrainingValidation::isNewBest(metrics, 0.3));
        QVERIFY(!TrainingValidation::isNewBest(metrics, 0.4));  // equal is not better
        metrics.loss = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(!TrainingValidation::isNewBest(metrics, -1.0));  // diverged weights are never best
        metrics.loss = std::numeric_limits<double>::infinity();
        QVERIFY(!TrainingValidation::isNewBest(metrics, -1.0));
    }
};

QTEST_APPLESS_MAIN(TestTrainingValidation)
#include "test_TrainingValidation.moc"
