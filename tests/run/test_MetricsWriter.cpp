#include "RunTestFiles.h"

#include "run/FileError.h"
#include "run/MetricsReader.h"
#include "run/MetricsWriter.h"

#include <QTest>

#include <sys/stat.h>

#include <cmath>
#include <limits>

using segstudio::run::FileError;
using segstudio::run::GpuSample;
using segstudio::run::MetricsReader;
using segstudio::run::MetricsRecord;
using segstudio::run::MetricsWriter;
using segstudio::run::RunState;
using Kind = segstudio::run::MetricsRecord::Kind;
namespace test = segstudio::test;

class TestMetricsWriter : public QObject {
    Q_OBJECT

private slots:
    // What the engine writes, the GUI and CLI read back field for field: one contract.
    void everyKindRoundTrips()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        MetricsRecord run;
        run.kind = Kind::Run;
        run.run.segstudioVersion = "1.2.3";
        run.run.model = "deeplabv3plus";
        run.run.device = "cuda:0";
        run.run.worldSize = 4;
        run.run.batch = 8;
        run.run.epochs = 30;
        run.run.iterationsPerEpoch = 12;
        run.run.totalIterations = 360;
        run.run.resumedAtEpoch = 3;
        run.run.started = "2026-11-23T10:00:00Z";
        auto train = MetricsRecord::train(3, 25);
        train.loss = 0.75;
        train.accuracy = 0.5;
        train.learningRate = 1e-3;
        train.imagesPerSecond = std::numeric_limits<double>::quiet_NaN();  // written as null
        train.elapsedSeconds = 12.5;
        auto val = MetricsRecord::val(3, 36);
        val.meanIoU = 0.4;
        val.classIoU = {0.5, std::numeric_limits<double>::quiet_NaN(), 0.25};
        const auto failed = MetricsRecord::stateChange(RunState::Failed, 3, 36, "pack.bin: truncated");
        MetricsRecord system;
        system.kind = Kind::System;
        system.iteration = 36;
        system.gpus = {GpuSample{1, 0.875, 4e9, 8e9}};
        {
            MetricsWriter writer(file);
            for (const auto& record : {run, train, val, failed, system})
                writer.write(record);
        }
        const auto back = MetricsReader::readAll(file);
        QCOMPARE(back.size(), std::size_t(5));
        QVERIFY(back[0].kind == Kind::Run);
        QCOMPARE(back[0].run.model, run.run.model);
        QCOMPARE(back[0].run.device, run.run.device);
        QCOMPARE(back[0].run.worldSize, 4);
        QCOMPARE(back[0].run.totalIterations, std::int64_t(360));
        QCOMPARE(back[0].run.iterationsPerEpoch, std::int64_t(12));
        QCOMPARE(back[0].run.resumedAtEpoch, 3);
        QCOMPARE(back[0].run.segstudioVersion, std::string("1.2.3"));
        QCOMPARE(back[0].run.started, run.run.started);
        QCOMPARE(*back[1].loss, 0.75);
        QCOMPARE(*back[1].learningRate, 1e-3);
        QVERIFY(!back[1].imagesPerSecond);
        QCOMPARE(*back[1].elapsedSeconds, 12.5);
        QCOMPARE(back[2].classIoU.size(), std::size_t(3));
        QVERIFY(std::isnan(back[2].classIoU[1]));
        QCOMPARE(back[2].classIoU[2], 0.25);
        QVERIFY(back[3].kind == Kind::State);
        QVERIFY(back[3].state == RunState::Failed);
        QCOMPARE(back[3].reason, std::string("pack.bin: truncated"));
        QCOMPARE(back[4].gpus.size(), std::size_t(1));
        QCOMPARE(back[4].gpus[0].index, 1);
        QCOMPARE(back[4].gpus[0].utilization, 0.875);
        QCOMPARE(back[4].gpus[0].memoryTotal, 8e9);
    }

    // The resume bug of issue 11: a run killed after its checkpoint had logged iterations it
    // trains again; the resumed run must continue one clean curve.
    void forgetAfterDropsRedoneIterationsAndATornLine()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        {
            MetricsWriter writer(file);
            for (int i = 10; i <= 50; i += 10)
                writer.write(MetricsRecord::train(1, i));
            writer.write(MetricsRecord::val(1, 30));
        }
        test::append(file, "{\"kind\":\"train\",\"iter");  // killed mid-line
        MetricsWriter resumed(file);
        resumed.forgetAfter(30);
        resumed.write(MetricsRecord::train(1, 40));
        const auto records = MetricsReader::readAll(file);
        std::vector<std::int64_t> iterations;
        for (const auto& record : records)
            iterations.push_back(record.iteration);
        QCOMPARE(iterations, (std::vector<std::int64_t>{10, 20, 30, 30, 40}));
        QVERIFY(records[3].kind == Kind::Val);
        QVERIFY(test::read(file).back() == '\n');
    }

    void forgetAfterLeavesACleanFileAlone()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        MetricsWriter writer(file);
        writer.write(MetricsRecord::train(1, 10));
        // A timestamp cannot see a rewrite within its resolution: the inode shows a replacement
        // (atomic writes rename a new file over the old) and the bytes an in-place change.
        struct stat before {};
        QCOMPARE(::stat(file.c_str(), &before), 0);
        const std::string bytes = test::read(file);
        writer.forgetAfter(10);
        QCOMPARE(test::read(file), bytes);
        struct stat after {};
        QCOMPARE(::stat(file.c_str(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);
    }

    void fullDiskNamesTheFile()
    {
        if (!std::filesystem::exists("/dev/full"))
            QSKIP("this system has no /dev/full");
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        std::filesystem::create_symlink("/dev/full", file);
        MetricsWriter writer(file);
        try {
            writer.write(MetricsRecord::train(1, 1));
            QFAIL("no error");
        } catch (const FileError& error) {
            QCOMPARE(error.file(), file.string());
            QVERIFY2(std::string(error.what()).find("No space left on device") != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestMetricsWriter)
#include "test_MetricsWriter.moc"
