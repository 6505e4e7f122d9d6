#include "engine/training/CheckpointCadence.h"

#include <QtTest>

using namespace segstudio::engine;

// When an epoch's end writes last.pt: explicit intervals as given, the automatic one paced by
// the time a write takes (about 2 % of the run), at most one a minute on a GPU.
class TestCheckpointCadence : public QObject {
    Q_OBJECT

private slots:
    void automaticOnCpuSavesEachEpochWhileWritesAreCheap();
    void automaticOnCpuSpacesCostlyWrites();
    void automaticOnGpuWaitsAMinuteAtLeast();
    void explicitIntervalsIgnoreTheWriteTime();
};

void TestCheckpointCadence::automaticOnCpuSavesEachEpochWhileWritesAreCheap()
{
    CheckpointCadence cadence(-1, /*onGpu=*/false);
    cadence.started(0.0);
    QVERIFY(cadence.due(0.5));  // nothing written yet: the first epoch's end writes
    cadence.written(10.0, 0.01);
    QVERIFY(!cadence.due(10.2));
    QVERIFY(cadence.due(10.5));  // 0.49 s of training per 10 ms write
}

void TestCheckpointCadence::automaticOnCpuSpacesCostlyWrites()
{
    CheckpointCadence cadence(-1, false);
    cadence.started(0.0);
    cadence.written(12.0, 1.3);  // a 139 MB last.pt on two cores
    QVERIFY(qAbs(cadence.interval() - 63.7) < 1e-9);
    QVERIFY(!cadence.due(12.0 + 12.6));  // the next epoch's end: not yet
    QVERIFY(!cadence.due(12.0 + 63.0));
    QVERIFY(cadence.due(12.0 + 63.8));
    // Writes that became cheap (a faster disk, a page cache) bring the epochs' writes back.
    cadence.written(80.0, 0.1);
    QVERIFY(cadence.due(85.0));
}

void TestCheckpointCadence::automaticOnGpuWaitsAMinuteAtLeast()
{
    CheckpointCadence cadence(-1, /*onGpu=*/true);
    cadence.started(0.0);
    QVERIFY(!cadence.due(59.0));
    QVERIFY(cadence.due(60.0));
    cadence.written(60.0, 3.0);  // a slow write on a GPU machine: paced by it, beyond the minute
    QVERIFY(!cadence.due(60.0 + 100.0));
    QVERIFY(cadence.due(60.0 + 147.0));
}

void TestCheckpointCadence::explicitIntervalsIgnoreTheWriteTime()
{
    CheckpointCadence eachEpoch(0, false);
    eachEpoch.started(0.0);
    eachEpoch.written(10.0, 5.0);
    QVERIFY(eachEpoch.due(10.0));

    CheckpointCadence everyHalfMinute(30, true);
    everyHalfMinute.started(0.0);
    QVERIFY(!everyHalfMinute.due(29.0));
    QVERIFY(everyHalfMinute.due(30.0));
    everyHalfMinute.written(30.0, 5.0);
    QVERIFY(!everyHalfMinute.due(59.0));
    QVERIFY(everyHalfMinute.due(60.0));
}

QTEST_GUILESS_MAIN(TestCheckpointCadence)
#include "test_CheckpointCadence.moc"
