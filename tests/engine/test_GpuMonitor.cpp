#include "engine/runtime/GpuMonitor.h"

#include <QTest>

using segstudio::engine::GpuMonitor;

Q_DECLARE_METATYPE(std::vector<int>)

class TestGpuMonitor : public QObject {
    Q_OBJECT

private slots:
    void visibleDevicesMapCudaToNvml_data()
    {
        QTest::addColumn<QString>("visible");
        QTest::addColumn<std::vector<int>>("expected");
        QTest::newRow("unset") << QString() << std::vector<int>{0, 1};
        QTest::newRow("list") << QStringLiteral("2,3") << std::vector<int>{2, 3};
        QTest::newRow("shorter") << QStringLiteral("5") << std::vector<int>{5, 1};
        QTest::newRow("uuids") << QStringLiteral("GPU-8c1f,GPU-77aa") << std::vector<int>{0, 1};
        QTest::newRow("negative") << QStringLiteral("-1") << std::vector<int>{0, 1};
    }

    void visibleDevicesMapCudaToNvml()
    {
        QFETCH(QString, visible);
        QFETCH(std::vector<int>, expected);
        QCOMPARE(GpuMonitor::nvmlIndices({0, 1}, visible.toStdString()), expected);
    }

    // Without NVML (this CI machine) the monitor is simply absent, and the count of skips says
    // so; with it, samples are sane.
    void openIsAbsentOrSane()
    {
        const auto monitor = GpuMonitor::open({0});
        if (!monitor)
            QSKIP("no NVML (libnvidia-ml) or no NVIDIA GPU here: nothing to sample");
        const auto samples = monitor->sample();
        QVERIFY(!samples.empty());
        for (const auto& gpu : samples) {
            QVERIFY(gpu.memoryTotal > 0);
            QVERIFY(gpu.utilization >= 0.0 && gpu.utilization <= 1.0);
        }
    }
};

QTEST_GUILESS_MAIN(TestGpuMonitor)
#include "test_GpuMonitor.moc"
