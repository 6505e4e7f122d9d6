#include "pack/PackError.h"
#include "pack/PackReader.h"
#include "pack/PackWriter.h"

#include <QtTest>
#include <filesystem>
#include <fstream>

using namespace segstudio;
namespace fs = std::filesystem;

class TestPackReader : public QObject {
    Q_OBJECT

private:
    static pack::PackSpec smallSpec()
    {
        pack::PackSpec spec;
        spec.height = 3;
        spec.width = 4;
        spec.classes = {{"road", 5, 24}, {"car", 7, 36}};
        return spec;
    }

    // Writes `count` records, record i filled with bytes i (image) and i % 2 (labels), in reverse
    // order to check that records may come in any order.
    static std::string writePack(const QTemporaryDir& dir, std::size_t count = 3)
    {
        const std::string file = dir.filePath(QStringLiteral("t.pack")).toStdString();
        pack::PackWriter writer(file, smallSpec(), count);
        for (std::size_t i = count; i-- > 0;) {
            const std::vector<std::uint8_t> image(36, std::uint8_t(i));
            const std::vector<std::uint8_t> labels(12, std::uint8_t(i % 2));
            writer.write(i, image.data(), labels.data());
        }
        writer.finish();
        return file;
    }

    static void corrupt(const std::string& file, std::uint64_t offset, char value)
    {
        std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
        stream.seekp(std::streamoff(offset));
        stream.put(value);
    }

    static void expectRefusal(const std::string& file, const QString& expected)
    {
        try {
            pack::PackReader reader(file);
            QFAIL("a bad pack was accepted");
        } catch (const pack::PackError& error) {
            QVERIFY2(QString::fromStdString(error.what()).contains(expected), error.what());
            QCOMPARE(QString::fromStdString(error.path()), QString::fromStdString(file));
        }
    }

private slots:
    void roundTrip()
    {
        QTemporaryDir dir;
        const pack::PackReader reader(writePack(dir));
        QCOMPARE(reader.size(), std::size_t(3));
        QCOMPARE(reader.spec().classes.size(), std::size_t(2));
        QCOMPARE(reader.spec().classes[1].name, std::string("car"));
        QCOMPARE(reader.spec().classes[1].imagePixelCount, 36ULL);
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(int(reader.image(i)[35]), int(i));
            QCOMPARE(int(reader.label(i)[0]), int(i % 2));
        }
        QCOMPARE(reader.label(1), reader.labelBlock() + 12);
        QCOMPARE(std::uintptr_t(reader.imageBlock()) % 4096, std::uintptr_t(0));  // page-aligned for mmap use
    }

    void corruptPacksAreRefused_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad magic") << 0 << "bad magic";
        QTest::newRow("newer version") << 1 << "version";
        QTest::newRow("flipped payload byte") << 2 << "checksum mismatch";
        QTest::newRow("truncated") << 3 << "truncated";
        QTest::newRow("tiny") << 4 << "too small";
        QTest::newRow("missing") << 5 << "cannot open";
    }

    void corruptPacksAreRefused()
    {
        QFETCH(int, fault);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string file = writePack(dir);
        const auto size = fs::file_size(file);
        if (fault == 0)
            corrupt(file, 0, 'X');
        if (fault == 1)
            corrupt(file, 8, 9);  // version 9
        if (fault == 2)
            corrupt(file, size - 5, 42);
        if (fault == 3)
            fs::resize_file(file, size - 1);
        if (fault == 4)
            fs::resize_file(file, 10);
        if (fault == 5)
            fs::remove(file);
        expectRefusal(file, expected);
    }

    // Single bytes flipped in a real pack's header block, as a bad disk or copy flips them: each
    // one is refused with the file's name, never std::bad_alloc or a silently wrong class table.
    void flippedHeaderBytesAreRefused_data()
    {
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("expected");
        // 8x8 records are 256 bytes: count + 2^56 records wraps count * 256 around to the same length.
        QTest::newRow("count byte 39 (wraps to the file's length)") << 39 << 0x01 << "truncated or padded";
        QTest::newRow("count byte 39 high") << 39 << 0x80 << "truncated or padded";
        QTest::newRow("count byte 38") << 38 << 0xff << "truncated or padded";
        QTest::newRow("height byte 19") << 19 << 0x40 << "truncated or padded";
        QTest::newRow("channels byte 27") << 27 << 0x01 << "truncated or padded";
        QTest::newRow("checksum byte 45") << 45 << 0x5a << "checksum mismatch";
        QTest::newRow("class name byte 56") << 56 << int('X') << "checksum mismatch";
        QTest::newRow("class pixel count byte 104") << 104 << 0x33 << "checksum mismatch";
        QTest::newRow("header padding byte 4000") << 4000 << 0x01 << "checksum mismatch";
    }

    void flippedHeaderBytesAreRefused()
    {
        QFETCH(int, offset);
        QFETCH(int, value);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("p.pack")).toStdString();
        pack::PackSpec spec;
        spec.height = 8;
        spec.width = 8;
        spec.classes = {{"road", 5, 24}, {"car", 7, 36}};
        {
            pack::PackWriter writer(file, spec, 2);
            const std::vector<std::uint8_t> image(spec.imageBytes(), 9), labels(spec.labelBytes(), 1);
            writer.write(0, image.data(), labels.data());
            writer.write(1, image.data(), labels.data());
            writer.finish();
        }
        QVERIFY(pack::PackReader(file).size() == 2);  // intact before the flip
        std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
        stream.seekg(offset);
        const char before = char(stream.get());
        stream.seekp(offset);
        stream.put(char(before ^ char(value)));
        stream.close();
        expectRefusal(file, expected);
    }

    // Packs written before version 2 (checksum over the records only) are still read and verified.
    void versionOnePacksAreStillRead()
    {
        QTemporaryDir dir;
        const std::string file = writePack(dir);
        std::vector<std::uint64_t> hashes;
        for (std::size_t i = 0; i < 3; ++i) {  // as writePack() filled them
            const std::vector<std::uint8_t> image(36, std::uint8_t(i)), labels(12, std::uint8_t(i % 2));
            hashes.push_back(pack::fnv1a64(image.data(), image.size()));
            hashes.push_back(pack::fnv1a64(labels.data(), labels.size()));
        }
        pack::PackHeaderRecord header{};
        std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
        stream.read(reinterpret_cast<char*>(&header), sizeof header);
        header.version = 1;
        header.checksum = pack::fnv1a64(hashes.data(), hashes.size() * sizeof(std::uint64_t));
        stream.seekp(0);
        stream.write(reinterpret_cast<const char*>(&header), sizeof header);
        stream.close();
        const pack::PackReader reader(file);
        QCOMPARE(reader.size(), std::size_t(3));
        QCOMPARE(reader.spec().classes[1].name, std::string("car"));
        corrupt(file, fs::file_size(file) - 5, 42);
        expectRefusal(file, QStringLiteral("checksum mismatch"));
    }

    void unfinishedPackLeavesNoFile()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("t.pack")).toStdString();
        {
            pack::PackWriter writer(file, smallSpec(), 2);
            const std::vector<std::uint8_t> image(36, 1), labels(12, 0);
            writer.write(0, image.data(), labels.data());
            QVERIFY_THROWS_EXCEPTION(pack::PackError, writer.finish());  // record 1 missing
        }
        QVERIFY(!fs::exists(file));
        QVERIFY(!fs::exists(file + ".partial"));
    }

    // Issue 46.5: two packs to one output mixed their bytes (the second "succeeded" with the
    // first's size and a bad checksum). The second writer finds the first's claim and is refused
    // before it writes a byte; the first finishes a valid pack.
    void aSecondWriterOfTheSameOutputIsRefused()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("t.pack")).toStdString();
        pack::PackWriter first(file, smallSpec(), 1);
        try {
            pack::PackWriter second(file, smallSpec(), 2);
            QFAIL("a second writer of one pack was accepted");
        } catch (const pack::PackError& error) {
            QVERIFY2(QString::fromStdString(error.what()).contains(QStringLiteral("another pack is being written")), error.what());
            QCOMPARE(QString::fromStdString(error.path()), QString::fromStdString(file));
        }
        const std::vector<std::uint8_t> image(36, 7), labels(12, 1);
        first.write(0, image.data(), labels.data());
        first.finish();
        pack::PackReader reader(file);
        QCOMPARE(reader.size(), std::size_t(1));
        QVERIFY(!fs::exists(file + ".partial"));
    }

    // An output that exists and is not a pack (a typo in -o) is never replaced.
    void anOutputThatIsNotAPackIsNeverReplaced()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("notes.txt")).toStdString();
        std::ofstream(file) << "my notes\n";
        QVERIFY_THROWS_EXCEPTION(pack::PackError, pack::PackWriter(file, smallSpec(), 1));
        std::ifstream in(file);
        std::string line;
        std::getline(in, line);
        QCOMPARE(line, std::string("my notes"));
        writePack(dir);  // an earlier pack is replaced
        writePack(dir);
        QCOMPARE(pack::PackReader(dir.filePath(QStringLiteral("t.pack")).toStdString()).size(), std::size_t(3));
    }

    // Issue 46.11: a flipped header size field was reported as "bad header: class count 2", a
    // count that is fine. The refusal says which fields disagree and gives both numbers.
    void headerSizeThatDisagreesWithTheClassCountIsNamed()
    {
        QTemporaryDir dir;
        const std::string file = writePack(dir);
        QCOMPARE(pack::packHeaderBytes(2), std::uint32_t(4096));
        corrupt(file, 13, 0x20);  // headerBytes (offset 12, little-endian): 0x1000 -> 0x2000
        expectRefusal(file, QStringLiteral("header size field says 8192 bytes"));
        expectRefusal(file, QStringLiteral("class count 2 implies a header of 4096 bytes"));
    }
};

QTEST_GUILESS_MAIN(TestPackReader)
#include "test_PackReader.moc"
