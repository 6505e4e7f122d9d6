// Issue 65.1: what feeds a run's steps, out of Trainer and tested alone: the loader's options from
// the configuration and the world, what it copies when the pack lives on the device, and on a CPU
// a loader over the pack with the data left on the host, saying so.
#include "TestPacks.h"
#include "engine/training/TrainingInput.h"
#include "pack/PackReader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace segstudio::engine;

class TestTrainingInput : public QObject {
    Q_OBJECT

private slots:
    void loaderOptionsFollowTheConfigurationAndTheWorld()
    {
        TrainConfig config;
        config.batchSize = 6;
        config.seed = 42;
        config.prefetch = 3;
        auto options = TrainingInput::loaderOptions(config, torch::kCPU, 1, 2, false);
        QCOMPARE(options.batchSize, 6);
        QCOMPARE(options.seed, std::uint64_t(42));
        QCOMPARE(options.prefetch, 3);
        QCOMPARE(options.rank, 1);
        QCOMPARE(options.worldSize, 2);
        QVERIFY(!options.pinMemory);  // no CUDA: nothing to pin for
        QVERIFY(options.copyImages && options.copyLabels);
        // The pack on the device: the loader copies nothing, unless class-uniform crops need the labels.
        options = TrainingInput::loaderOptions(config, torch::kCPU, 0, 1, true);
        QVERIFY(!options.copyImages && !options.copyLabels);
        config.classCrops = 0.5;
        config.cropHeight = config.cropWidth = 16;
        QVERIFY(TrainingInput::loaderOptions(config, torch::kCPU, 0, 1, true).copyLabels);
    }

    void onACpuTheDataStaysOnTheHost()
    {
        QTemporaryDir dir;
        const std::string file = (std::filesystem::path(dir.path().toStdString()) / "train.pack").string();
        segstudio::enginetest::writeStripePack(file, 8, 32, 32, 4, 3);
        const segstudio::pack::PackReader pack(file);
        TrainConfig config;
        config.batchSize = 4;
        const TrainingInput input = TrainingInput::make(config, pack, torch::kCPU, 0, 1);
        QVERIFY(!input.resident);
        QVERIFY(input.augmenter && input.crops && input.loader);
        QCOMPARE(input.loader->batchesPerEpoch(), std::int64_t(2));
        QVERIFY(!input.note.empty());
    }
};

QTEST_APPLESS_MAIN(TestTrainingInput)
#include "test_TrainingInput.moc"
