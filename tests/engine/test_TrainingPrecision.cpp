#include "engine/runtime/EngineError.h"
#include "engine/runtime/Runtime.h"
#include "engine/training/TrainingPrecision.h"

#include <QtTest>

using namespace segstudio::engine;

// The precision a run trains in on its device: what a new run cannot compute is refused, a
// resumed one goes on in fp32 and says why; channels-last only where it pays.
class TestTrainingPrecision : public QObject {
    Q_OBJECT

private slots:
    void fp32OnACpuStaysChannelsFirst();
    void fp16WithoutCudaIsRefusedForANewRun();
    void fp16WithoutCudaGoesOnInFp32WhenResumed();
    void bf16NeedsTheCpusInstructions();

private:
    static TrainConfig config(const std::string& amp)
    {
        TrainConfig config;
        config.model = "segnet-tiny";
        config.amp = amp;
        config.channelsLast = true;
        return config;
    }
};

void TestTrainingPrecision::fp32OnACpuStaysChannelsFirst()
{
    const auto precision = TrainingPrecision::choose(config("none"), torch::kCPU, false);
    QCOMPARE(precision.amp, std::string("none"));
    QVERIFY(!precision.channelsLast);
    QVERIFY(precision.note.empty());
}

void TestTrainingPrecision::fp16WithoutCudaIsRefusedForANewRun()
{
    try {
        TrainingPrecision::choose(config("fp16"), torch::kCPU, /*resuming=*/false);
        QFAIL("accepted");
    } catch (const EngineError& error) {
        QVERIFY2(std::string(error.what()).find("amp fp16 needs a CUDA device") != std::string::npos, error.what());
    }
}

void TestTrainingPrecision::fp16WithoutCudaGoesOnInFp32WhenResumed()
{
    const auto precision = TrainingPrecision::choose(config("fp16"), torch::kCPU, /*resuming=*/true);
    QCOMPARE(precision.amp, std::string("none"));
    QVERIFY(!precision.channelsLast);
    QVERIFY2(precision.note.rfind("training goes on in fp32: amp fp16 needs a CUDA device", 0) == 0,
             precision.note.c_str());
}

void TestTrainingPrecision::bf16NeedsTheCpusInstructions()
{
    // segnet-tiny has no bf16 CPU kernels: refused on any CPU, for one reason or the other.
    const std::string why = cpuComputesBf16() ? "does not train in bf16 on a CPU" : "bf16 instructions";
    try {
        TrainingPrecision::choose(config("bf16"), torch::kCPU, false);
        QFAIL("accepted");
    } catch (const EngineError& error) {
        QVERIFY2(std::string(error.what()).find(why) != std::string::npos, error.what());
    }
    const auto resumed = TrainingPrecision::choose(config("bf16"), torch::kCPU, true);
    QCOMPARE(resumed.amp, std::string("none"));
    QVERIFY2(resumed.note.find(why) != std::string::npos, resumed.note.c_str());
    if (!cpuComputesBf16())
        return;
    // A model that trains in bf16 on a CPU that computes it: bf16, and channels-last for oneDNN.
    TrainConfig resnet = config("bf16");
    resnet.model = "deeplabv3plus-resnet18";
    const auto precision = TrainingPrecision::choose(resnet, torch::kCPU, false);
    QCOMPARE(precision.amp, std::string("bf16"));
    QVERIFY(precision.channelsLast);
}

QTEST_GUILESS_MAIN(TestTrainingPrecision)
#include "test_TrainingPrecision.moc"
