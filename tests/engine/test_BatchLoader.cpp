#include "TestPacks.h"
#include "engine/input/BatchLoader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <set>

using segstudio::engine::BatchLoader;
using segstudio::pack::PackReader;

// Batches are exact copies of pack records, in a per-epoch order that depends only on the seed.
class TestBatchLoader : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void batchesCopyRecordsInEpochOrder();
    void orderIsSeededPerEpoch();
    void startsMidEpoch();
    void keepsLastPartialBatchWhenAsked();

private:
    QTemporaryDir m_dir;
    std::string m_pack;
};

void TestBatchLoader::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pack = m_dir.filePath(QStringLiteral("loader.pack")).toStdString();
    segstudio::enginetest::writeStripePack(m_pack, 10, 8, 12, 3);
}

void TestBatchLoader::batchesCopyRecordsInEpochOrder()
{
    PackReader reader(m_pack);
    BatchLoader loader(reader, {3, true, true, 5, false, 2});
    QCOMPARE(loader.batchesPerEpoch(), std::int64_t(3));
    // The order of seed 5, epoch 0, pinned: it must never change between versions or standard
    // libraries, or a run resumed by another build would see other batches.
    const std::vector<std::int64_t> order{6, 8, 4, 9, 0, 3, 2, 1, 7, 5};
    QCOMPARE(loader.epochOrder(0), order);
    BatchLoader rank1(reader, {3, true, true, 5, false, 2, 1, 2});
    QCOMPARE(rank1.epochOrder(0), (std::vector<std::int64_t>{8, 9, 3, 1, 5}));  // every other sample
    loader.start(0);
    std::int64_t seen = 0;
    while (auto batch = loader.next()) {
        QCOMPARE(batch->images.sizes(), (std::vector<std::int64_t>{3, 8, 12, 3}));
        QCOMPARE(batch->labels.sizes(), (std::vector<std::int64_t>{3, 8, 12}));
        for (int i = 0; i < 3; ++i) {
            const auto record = std::size_t(order[std::size_t(seen)]);
            QVERIFY(std::memcmp(batch->images[i].data_ptr<std::uint8_t>(), reader.image(record), 8 * 12 * 3) == 0);
            QVERIFY(std::memcmp(batch->labels[i].data_ptr<std::uint8_t>(), reader.label(record), 8 * 12) == 0);
            ++seen;
        }
    }
    QCOMPARE(seen, std::int64_t(9));  // the 10th record is the dropped partial batch
}

void TestBatchLoader::orderIsSeededPerEpoch()
{
    PackReader reader(m_pack);
    BatchLoader a(reader, {3, true, true, 5, false, 2});
    BatchLoader b(reader, {3, true, true, 5, false, 2});
    BatchLoader other(reader, {3, true, true, 6, false, 2});
    QCOMPARE(a.epochOrder(4), b.epochOrder(4));
    QVERIFY(a.epochOrder(0) != a.epochOrder(1));
    QVERIFY(a.epochOrder(0) != other.epochOrder(0));
    const auto order = a.epochOrder(2);
    QCOMPARE(std::set<std::int64_t>(order.begin(), order.end()).size(), std::size_t(10));
}

void TestBatchLoader::startsMidEpoch()
{
    PackReader reader(m_pack);
    BatchLoader loader(reader, {3, true, true, 5, false, 1});
    loader.start(1);
    std::vector<torch::Tensor> full;
    while (auto batch = loader.next())
        full.push_back(batch->images);
    loader.start(1, 1);
    auto batch = loader.next();
    QVERIFY(batch);
    QCOMPARE(batch->index, std::int64_t(1));
    QVERIFY(batch->images.equal(full[1]));
    loader.stop();  // stopping with batches still queued must not hang
}

void TestBatchLoader::keepsLastPartialBatchWhenAsked()
{
    PackReader reader(m_pack);
    BatchLoader loader(reader, {4, false, false, 1, false, 2});
    QCOMPARE(loader.batchesPerEpoch(), std::int64_t(3));
    loader.start(0);
    std::int64_t last = 0;
    while (auto batch = loader.next())
        last = batch->images.size(0);
    QCOMPARE(last, std::int64_t(2));
}

QTEST_GUILESS_MAIN(TestBatchLoader)
#include "test_BatchLoader.moc"
