// Issue 65.1: where a run stands in its checkpoint, out of Trainer and tested alone: written and
// read back, carried across a change of world size by samples, older states read with defaults,
// a damaged one refused.
#include "engine/training/SavedPosition.h"

#include <QtTest>

using namespace segstudio::engine;

class TestSavedPosition : public QObject {
    Q_OBJECT

private slots:
    void readsBackWhatItWrote()
    {
        const SavedPosition position{7, 3, 45, 6, 0.61, 812.5};
        nlohmann::json state = {{"model", "segnet-tiny"}};
        position.write(state, 2);
        QCOMPARE(state.at("model").get<std::string>(), std::string("segnet-tiny"));  // the rest kept
        const SavedPosition back = SavedPosition::read(state, 2, 4);
        QCOMPARE(back.epoch, 7);
        QCOMPARE(back.batchInEpoch, std::int64_t(3));
        QCOMPARE(back.iteration, std::int64_t(45));
        QCOMPARE(back.lastValidatedEpoch, 6);
        QCOMPARE(back.bestMeanIoU, 0.61);
        QCOMPARE(back.elapsedSeconds, 812.5);
    }

    // Four ranks had each done 3 batches (12 batches of the epoch); on two ranks that is 6 each.
    void anotherWorldContinuesAfterTheSameSamples()
    {
        nlohmann::json state;
        SavedPosition{2, 3, 30, 2, -1, 0}.write(state, 4);
        QCOMPARE(SavedPosition::read(state, 2, 1).batchInEpoch, std::int64_t(6));
        QCOMPARE(SavedPosition::read(state, 8, 1).batchInEpoch, std::int64_t(1));  // rounded down: 1.5 -> 1
    }

    void anOlderStateTakesTheDefaults()
    {
        const nlohmann::json state = {{"epoch", 7}, {"batchInEpoch", 0}, {"iteration", 70}};
        const SavedPosition position = SavedPosition::read(state, 1, 3);
        QCOMPARE(position.lastValidatedEpoch, 6);  // the last multiple of the period
        QCOMPARE(position.bestMeanIoU, -1.0);
        QCOMPARE(position.elapsedSeconds, 0.0);
    }

    void aDamagedStateIsRefused()
    {
        const nlohmann::json state = {{"epoch", nullptr}, {"batchInEpoch", 0}, {"iteration", 1}};
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception, SavedPosition::read(state, 1, 1));
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception, SavedPosition::read(nlohmann::json::object(), 1, 1));
    }
};

QTEST_APPLESS_MAIN(TestSavedPosition)
#include "test_SavedPosition.moc"
