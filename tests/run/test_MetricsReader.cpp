#include "RunTestFiles.h"

#include "run/FileError.h"
#include "run/MetricsReader.h"
#include "run/MetricsWriter.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <thread>

using segstudio::run::FileError;
using segstudio::run::MetricsReader;
using segstudio::run::MetricsRecord;
using segstudio::run::MetricsWriter;
using Kind = segstudio::run::MetricsRecord::Kind;
namespace test = segstudio::test;

namespace {

const char* kTrain1 = R"({"kind":"train","epoch":1,"iteration":10,"loss":1.5,"accuracy":0.25,"lr":0.001,"images_per_s":3.2,"elapsed_s":4.0})";
const char* kTrain2 = R"({"kind":"train","epoch":1,"iteration":20,"loss":1.25,"accuracy":0.5,"lr":0.001,"images_per_s":3.1,"elapsed_s":8.0})";
const char* kVal1 = R"({"kind":"val","epoch":1,"iteration":20,"loss":1.4,"accuracy":0.45,"mean_accuracy":null,"mean_iou":0.2,"weighted_iou":0.3,"class_iou":[0.1,null,0.3],"elapsed_s":9.0})";

std::vector<MetricsRecord> pollAll(MetricsReader& reader)
{
    std::vector<MetricsRecord> all;
    do {
        auto more = reader.poll();
        all.insert(all.end(), more.begin(), more.end());
    } while (!reader.atEnd());
    return all;
}

}  // namespace

class TestMetricsReader : public QObject {
    Q_OBJECT

private slots:
    void missingFileGivesNothing()
    {
        QTemporaryDir dir;
        MetricsReader reader(test::path(dir, "metrics.jsonl"));
        QVERIFY(reader.poll().empty());
        QCOMPARE(reader.offset(), std::uint64_t(0));
    }

    void readsTrainAndValLines()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::write(file, std::string(kTrain1) + "\n" + kVal1 + "\n");
        MetricsReader reader(file);
        const auto records = reader.poll();
        QCOMPARE(records.size(), std::size_t(2));
        QVERIFY(records[0].kind == Kind::Train);
        QCOMPARE(records[0].iteration, std::int64_t(10));
        QCOMPARE(*records[0].loss, 1.5);
        QCOMPARE(*records[0].accuracy, 0.25);
        QCOMPARE(*records[0].learningRate, 0.001);
        QCOMPARE(*records[0].imagesPerSecond, 3.2);
        QVERIFY(!records[0].meanIoU);
        QVERIFY(records[1].kind == Kind::Val);
        QCOMPARE(records[1].epoch, 1);
        QCOMPARE(*records[1].meanIoU, 0.2);
        QVERIFY(!records[1].meanAccuracy);  // null = NaN
        QCOMPARE(records[1].classIoU.size(), std::size_t(3));
        QVERIFY(std::isnan(records[1].classIoU[1]));
        QVERIFY(reader.poll().empty());  // nothing new
        QVERIFY(reader.atEnd());
    }

    void partialLineWaitsForItsNewline_data()
    {
        QTest::addColumn<int>("cut");
        QTest::newRow("no byte") << 0;
        QTest::newRow("one byte") << 1;
        QTest::newRow("half") << int(std::string(kTrain2).size() / 2);
        QTest::newRow("all but newline") << int(std::string(kTrain2).size());
    }

    void partialLineWaitsForItsNewline()
    {
        QFETCH(int, cut);
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        const std::string second = std::string(kTrain2) + "\n";
        test::write(file, std::string(kTrain1) + "\n" + second.substr(0, std::size_t(cut)));
        MetricsReader reader(file);
        QCOMPARE(reader.poll().size(), std::size_t(1));
        QCOMPARE(reader.offset(), std::uint64_t(std::string(kTrain1).size() + 1));
        QVERIFY(reader.atEnd());  // only a line being written is left
        test::append(file, second.substr(std::size_t(cut)));
        const auto records = reader.poll();
        QCOMPARE(records.size(), std::size_t(1));
        QCOMPARE(records[0].iteration, std::int64_t(20));
        QCOMPARE(*records[0].loss, 1.25);
        QVERIFY(reader.takeWarnings().empty());
    }

    void appendedLinesArriveIncrementally()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        MetricsReader reader(file);
        test::append(file, std::string(kTrain1) + "\n");
        QCOMPARE(reader.poll().size(), std::size_t(1));
        test::append(file, std::string(kTrain2) + "\r\n\n" + kVal1 + "\n");  // CRLF and a blank line
        const auto records = reader.poll();
        QCOMPARE(records.size(), std::size_t(2));
        QCOMPARE(records[0].iteration, std::int64_t(20));
        QVERIFY(records[1].kind == Kind::Val);
    }

    void unknownKindIsSkippedSilently()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::write(file, std::string(R"({"kind":"future","x":1})") + "\n" + kTrain1 + "\n");
        MetricsReader reader(file);
        QCOMPARE(reader.poll().size(), std::size_t(1));
        QVERIFY(reader.takeWarnings().empty());
    }

    void corruptLineIsSkippedWithAWarning_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("not json") << QStringLiteral("{\"kind\":\"train\", loss}");
        QTest::newRow("no kind") << QStringLiteral("{\"loss\":1}");
        QTest::newRow("array") << QStringLiteral("[1,2]");
        QTest::newRow("bad state") << QStringLiteral("{\"kind\":\"state\",\"state\":\"dancing\"}");
        QTest::newRow("torn by a crash") << QStringLiteral("{\"kind\":\"train\",\"epo");
    }

    void corruptLineIsSkippedWithAWarning()
    {
        QFETCH(QString, line);
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::write(file, std::string(kTrain1) + "\n" + kTrain2 + "\n" + line.toStdString() + "\n" + kVal1 + "\n");
        MetricsReader reader(file);
        const auto records = reader.poll();
        QCOMPARE(records.size(), std::size_t(3));  // the lines around it all arrive
        QVERIFY(records[2].kind == Kind::Val);
        const auto warnings = reader.takeWarnings();
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(warnings[0].find(file.string() + ": line 3: ") == 0, warnings[0].c_str());
        QVERIFY2(warnings[0].find("skipped") != std::string::npos, warnings[0].c_str());
        QVERIFY(reader.poll().empty());
        QVERIFY(reader.takeWarnings().empty());  // said once
    }

    void parseLineNamesFileAndLine()
    {
        try {
            MetricsReader::parseLine("{oops", "m.jsonl", 7);
            QFAIL("no error");
        } catch (const FileError& error) {
            QCOMPARE(error.file(), std::string("m.jsonl"));
            QVERIFY2(error.problem().find("line 7: not valid JSON") == 0, error.what());
        }
    }

    void shorterFileStartsOver()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::write(file, std::string(kTrain1) + "\n" + kTrain2 + "\n");
        MetricsReader reader(file);
        QCOMPARE(reader.poll().size(), std::size_t(2));
        test::write(file, std::string(kVal1) + "\n");
        const auto records = reader.poll();
        QVERIFY(reader.restarted());
        QCOMPARE(records.size(), std::size_t(1));
        QVERIFY(records[0].kind == Kind::Val);
    }

    // A new run in the same folder (rm -rf and train again) may already have written more than
    // the old file held: the inode tells it apart from an append.
    void replacedLongerFileStartsOver()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::write(file, std::string(kTrain1) + "\n");
        MetricsReader reader(file);
        QCOMPARE(reader.poll().size(), std::size_t(1));
        const auto fresh = test::path(dir, "fresh");
        test::write(fresh, std::string(kTrain2) + "\n" + kTrain2 + "\n" + kVal1 + "\n");
        std::filesystem::rename(fresh, file);
        const auto records = reader.poll();
        QVERIFY(reader.restarted());
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(records[0].iteration, std::int64_t(20));
    }

    void bigFileComesInBoundedChunks()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        std::string text;
        for (int i = 0; i < 1000; ++i)
            text += std::string(kTrain1) + "\n";
        test::write(file, text);
        MetricsReader reader(file);
        const auto first = reader.poll(4096);
        QVERIFY(!first.empty());
        QVERIFY(first.size() < 1000);
        QVERIFY(!reader.atEnd());
        // One line longer than the chunk still comes whole.
        MetricsReader tiny(file);
        QCOMPARE(tiny.poll(10).size(), std::size_t(1));
        QCOMPARE(first.size() + pollAll(reader).size(), std::size_t(1000));
    }

    // The writer appends whole lines while the reader tails the file from another thread:
    // every record arrives exactly once and in order, however the reads and writes interleave.
    void readerTailsAConcurrentWriter()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        constexpr int kRecords = 3000;
        std::atomic<bool> done{false};
        std::thread writer([&] {
            MetricsWriter out(file);
            for (int i = 1; i <= kRecords; ++i) {
                auto record = MetricsRecord::train(1, i);
                record.loss = 1.0 / i;
                out.write(record);
            }
            done = true;
        });
        MetricsReader reader(file);
        std::vector<MetricsRecord> seen;
        while (!done || !reader.atEnd()) {
            auto more = reader.poll(512);
            seen.insert(seen.end(), more.begin(), more.end());
        }
        writer.join();
        auto rest = pollAll(reader);
        seen.insert(seen.end(), rest.begin(), rest.end());
        QCOMPARE(int(seen.size()), kRecords);
        for (int i = 0; i < kRecords; ++i)
            QCOMPARE(seen[std::size_t(i)].iteration, std::int64_t(i + 1));
        QVERIFY(reader.takeWarnings().empty());
    }

    void readAllCollectsWarnings()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::write(file, std::string(kTrain1) + "\n{bad\n" + kVal1 + "\n");
        std::vector<std::string> warnings;
        QCOMPARE(MetricsReader::readAll(file, &warnings).size(), std::size_t(2));
        QCOMPARE(warnings.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestMetricsReader)
#include "test_MetricsReader.moc"
