#include "data/project/FrameSequence.h"

#include <QtTest>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

using namespace segstudio;

namespace {
using Indices = std::vector<std::size_t>;
}  // namespace

// Frames of one sequence told from their names: the datasets' own conventions, plain counters,
// and everything else as images of their own.
class TestFrameSequence : public QObject {
    Q_OBJECT

private slots:
    void keys_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("sequence");
        QTest::addColumn<qint64>("frame");
        QTest::addColumn<bool>("valid");
        QTest::newRow("camvid") << "train/0016E5_07959.png"
                                << "train/0016E5_#.png" << qint64(7959) << true;
        QTest::newRow("camvid, lettered frame") << "train/0006R0_f00930.png"
                                                << "train/0006R0_f#.png" << qint64(930) << true;
        QTest::newRow("cityscapes") << "leftImg8bit/val/frankfurt/frankfurt_000001_000019_leftImg8bit.png"
                                    << "leftImg8bit/val/frankfurt/frankfurt_000001_#_leftImg8bit.png" << qint64(19)
                                    << true;
        QTest::newRow("padded counter") << "clip/frame_0001.png"
                                        << "clip/frame_#.png" << qint64(1) << true;
        QTest::newRow("counter after letters") << "img0007.jpg"
                                               << "img#.jpg" << qint64(7) << true;
        QTest::newRow("bare counter") << "a/00042.png"
                                      << "a/#.png" << qint64(42) << true;
        QTest::newRow("folder digits are no frame") << "run7/street.png"
                                                    << "run7/street.png" << qint64(0) << false;
        QTest::newRow("no number") << "photos/street.png"
                                   << "photos/street.png" << qint64(0) << false;
        QTest::newRow("digits inside a word") << "x/leftImg8bit.png"
                                              << "x/leftImg8bit.png" << qint64(0) << false;
        QTest::newRow("too long to be a counter") << "h/1234567890123456789.png"
                                                  << "h/1234567890123456789.png" << qint64(0) << false;
    }

    void keys()
    {
        QFETCH(QString, path);
        QFETCH(QString, sequence);
        QFETCH(qint64, frame);
        QFETCH(bool, valid);
        const auto key = data::FrameSequence::keyOf(path.toStdString());
        QCOMPARE(QString::fromStdString(key.sequence), sequence);
        QCOMPARE(qint64(key.frame), frame);
        QCOMPARE(key.valid, valid);
    }

    void camVidFramesFollowEachOther()
    {
        const data::FrameSequence frames(
            {"val/0016E5_07961.png", "val/0016E5_07959.png", "val/0001TP_008550.png", "val/0016E5_07963.png"});
        QCOMPARE(frames.sequences().size(), std::size_t(2));
        QCOMPARE(frames.sequenceOf(0), (Indices {1, 0, 3}));
        QCOMPARE(frames.sequenceOf(2), (Indices {2}));
        QCOMPARE(frames.next(1), std::optional<std::size_t>(0));
        QCOMPARE(frames.next(0), std::optional<std::size_t>(3));
        QCOMPARE(frames.next(3), std::optional<std::size_t>());
        QCOMPARE(frames.previous(0), std::optional<std::size_t>(1));
        QCOMPARE(frames.previous(1), std::optional<std::size_t>());
    }

    void cityscapesSequencesAreCityAndSequence()
    {
        const data::FrameSequence frames(
            {"aachen_000000_000019_leftImg8bit.png", "aachen_000001_000019_leftImg8bit.png",
             "aachen_000000_000018_leftImg8bit.png", "bochum_000000_000018_leftImg8bit.png"});
        QCOMPARE(frames.sequences().size(), std::size_t(3));
        QCOMPARE(frames.sequenceOf(0), (Indices {2, 0}));
        QCOMPARE(frames.sequenceOf(1), (Indices {1}));
        QCOMPARE(frames.sequenceOf(3), (Indices {3}));
    }

    void orderedByNumberNotByName()
    {
        const data::FrameSequence frames(
            {"clip/frame_10.png", "clip/frame_9.png", "clip/frame_100.png", "clip/frame_0011.png"});
        QCOMPARE(frames.sequences().size(), std::size_t(1));
        QCOMPARE(frames.sequenceOf(0), (Indices {1, 0, 3, 2}));
        QCOMPARE(frames.next(1), std::optional<std::size_t>(0));
    }

    void mixedFoldersAndPatterns()
    {
        // Two folders with the same names are two sequences; so are two counters in one folder.
        const data::FrameSequence frames({"a/frame_0002.png", "b/frame_0001.png", "a/frame_0001.png", "a/left_0001.png",
                                          "a/right_0001.png", "a/left_0002.png", "a/notes.png", "a/00005.png"});
        QCOMPARE(frames.sequences().size(), std::size_t(6));
        QCOMPARE(frames.sequenceOf(0), (Indices {2, 0}));
        QCOMPARE(frames.sequenceOf(1), (Indices {1}));
        QCOMPARE(frames.sequenceOf(3), (Indices {3, 5}));
        QCOMPARE(frames.sequenceOf(4), (Indices {4}));
        QCOMPARE(frames.sequenceOf(6), (Indices {6}));
        QCOMPARE(frames.sequenceOf(7), (Indices {7}));
        std::vector<bool> seen(8, false);
        for (const auto& sequence : frames.sequences())
            for (const std::size_t index : sequence) {
                QVERIFY(!seen[index]);
                seen[index] = true;
            }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](bool s) { return s; }));
    }

    void aFileAloneHasNoNeighbours()
    {
        const data::FrameSequence frames({"street.png"});
        QCOMPARE(frames.sequences(), (std::vector<Indices> {{0}}));
        QCOMPARE(frames.next(0), std::optional<std::size_t>());
        QCOMPARE(frames.previous(0), std::optional<std::size_t>());
        QCOMPARE(data::FrameSequence().sequences().size(), std::size_t(0));
    }

    void namesWithoutNumbersStayApart()
    {
        // "a#.png" reads like the id of a1.png's sequence, but has no number: it is no frame of it.
        const data::FrameSequence frames({"x/a1.png", "x/a#.png", "x/a2.png", "x/b.png", "x/c.png"});
        QCOMPARE(frames.sequenceOf(0), (Indices {0, 2}));
        QCOMPARE(frames.sequenceOf(1), (Indices {1}));
        QCOMPARE(frames.sequenceOf(3), (Indices {3}));
        QCOMPARE(frames.next(3), std::optional<std::size_t>());
    }

    void tiesAreBrokenByPath()
    {
        const data::FrameSequence frames({"f/img01.png", "f/img1.png", "f/img001.png"});
        QCOMPARE(frames.sequenceOf(0), (Indices {2, 0, 1}));
        QCOMPARE(data::FrameSequence({"f/img1.png", "f/img001.png", "f/img01.png"}).sequenceOf(0), (Indices {1, 2, 0}));
    }

    void outOfRangeThrows()
    {
        const data::FrameSequence frames({"a/1.png"});
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, frames.next(1));
    }
};

QTEST_GUILESS_MAIN(TestFrameSequence)
#include "test_FrameSequence.moc"
