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
            corrupt(file, 8, 9);
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
};

QTEST_GUILESS_MAIN(TestPackReader)
#include "test_PackReader.moc"
