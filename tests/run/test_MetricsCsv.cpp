#include "run/MetricsCsv.h"

#include <QTest>

#include <limits>

using segstudio::run::MetricsRecord;

class TestMetricsCsv : public QObject {
    Q_OBJECT

private slots:
    void oneRowPerTrainOrValRecord()
    {
        auto train = MetricsRecord::train(1, 10);
        train.loss = 1.5;
        train.learningRate = 0.001;
        train.elapsedSeconds = 4;
        auto val = MetricsRecord::val(1, 20);
        val.meanIoU = 0.25;
        val.classIoU = {0.5, std::numeric_limits<double>::quiet_NaN()};
        const auto state = MetricsRecord::stateChange(segstudio::run::RunState::Finished, 1, 20);
        const std::string csv = segstudio::run::metricsCsv({train, state, val}, {"Sky", "Sign, symbol"});
        const std::string expected =
            "kind,epoch,iteration,elapsed_s,loss,accuracy,lr,images_per_s,mean_accuracy,mean_iou,weighted_iou,"
            "iou_Sky,\"iou_Sign, symbol\"\n"
            "train,1,10,4,1.5,,0.001,,,,,,\n"
            "val,1,20,,,,,,,0.25,,0.5,\n";
        QCOMPARE(QString::fromStdString(csv), QString::fromStdString(expected));
    }

    void unnamedClassesAreNumbered()
    {
        auto val = MetricsRecord::val(1, 20);
        val.classIoU = {0.5, 0.75, 1.0};
        const std::string csv = segstudio::run::metricsCsv({val}, {"a"});
        QVERIFY2(csv.find(",iou_a,iou_1,iou_2\n") != std::string::npos, csv.c_str());
        QVERIFY2(csv.find(",0.5,0.75,1\n") != std::string::npos, csv.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMetricsCsv)
#include "test_MetricsCsv.moc"
