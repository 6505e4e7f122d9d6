#include "TestFiles.h"

#include "data/DataError.h"
#include "data/RunMetrics.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using segstudio::data::DataError;
using segstudio::data::MetricsPoint;
using segstudio::data::RunMetrics;
namespace test = segstudio::test;

namespace {

void append(const std::filesystem::path& file, const std::string& text)
{
    std::ofstream(file, std::ios::binary | std::ios::app) << text;
}

const char* kTrain1 = R"({"kind":"train","epoch":1,"iteration":10,"loss":1.5,"accuracy":0.25,"lr":0.001,"images_per_s":3.2,"elapsed_s":4.0})";
const char* kTrain2 = R"({"kind":"train","epoch":1,"iteration":20,"loss":1.25,"accuracy":0.5,"lr":0.001,"images_per_s":3.1,"elapsed_s":8.0})";
const char* kVal1 = R"({"kind":"val","epoch":1,"iteration":20,"loss":1.4,"accuracy":0.45,"mean_accuracy":null,"mean_iou":0.2,"weighted_iou":0.3,"class_iou":[0.1,null,0.3],"elapsed_s":9.0})";

}  // namespace

class TestRunMetrics : public QObject {
    Q_OBJECT

private slots:
    void missingFileGivesNothing()
    {
        QTemporaryDir dir;
        RunMetrics metrics(test::path(dir, "metrics.jsonl"));
        QVERIFY(metrics.poll().empty());
        QCOMPARE(metrics.offset(), std::uint64_t(0));
    }

    void readsTrainAndValLines()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::writeBytes(file, std::string(kTrain1) + "\n" + kVal1 + "\n");
        RunMetrics metrics(file);
        const auto points = metrics.poll();
        QCOMPARE(points.size(), std::size_t(2));
        QVERIFY(points[0].kind == MetricsPoint::Kind::Train);
        QCOMPARE(points[0].iteration, std::int64_t(10));
        QCOMPARE(*points[0].loss, 1.5);
        QCOMPARE(*points[0].accuracy, 0.25);
        QCOMPARE(*points[0].learningRate, 0.001);
        QVERIFY(!points[0].meanIoU);
        QVERIFY(points[1].kind == MetricsPoint::Kind::Val);
        QCOMPARE(points[1].epoch, 1);
        QCOMPARE(*points[1].meanIoU, 0.2);
        QVERIFY(!points[1].meanAccuracy);  // null = NaN
        QVERIFY(metrics.poll().empty());   // nothing new
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
        test::writeBytes(file, std::string(kTrain1) + "\n" + second.substr(0, std::size_t(cut)));
        RunMetrics metrics(file);
        QCOMPARE(metrics.poll().size(), std::size_t(1));
        QCOMPARE(metrics.offset(), std::uint64_t(std::string(kTrain1).size() + 1));
        append(file, second.substr(std::size_t(cut)));
        const auto points = metrics.poll();
        QCOMPARE(points.size(), std::size_t(1));
        QCOMPARE(points[0].iteration, std::int64_t(20));
        QCOMPARE(*points[0].loss, 1.25);
    }

    void appendedLinesArriveIncrementally()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        RunMetrics metrics(file);
        append(file, std::string(kTrain1) + "\n");
        QCOMPARE(metrics.poll().size(), std::size_t(1));
        append(file, std::string(kTrain2) + "\r\n\n" + kVal1 + "\n");  // CRLF and a blank line
        const auto points = metrics.poll();
        QCOMPARE(points.size(), std::size_t(2));
        QCOMPARE(points[0].iteration, std::int64_t(20));
        QVERIFY(points[1].kind == MetricsPoint::Kind::Val);
    }

    void unknownKindIsSkipped()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::writeBytes(file, std::string(R"({"kind":"test","x":1})") + "\n" + kTrain1 + "\n");
        RunMetrics metrics(file);
        QCOMPARE(metrics.poll().size(), std::size_t(1));
    }

    void malformedLineNamesFileAndLine_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("not json") << QStringLiteral("{\"kind\":\"train\", loss}");
        QTest::newRow("no kind") << QStringLiteral("{\"loss\":1}");
        QTest::newRow("array") << QStringLiteral("[1,2]");
    }

    void malformedLineNamesFileAndLine()
    {
        QFETCH(QString, line);
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::writeBytes(file, std::string(kTrain1) + "\n" + kTrain2 + "\n" + line.toStdString() + "\n" + kVal1 + "\n");
        RunMetrics metrics(file);
        // The good lines come first; the error comes on the next poll and names line 3.
        QCOMPARE(metrics.poll().size(), std::size_t(2));
        try {
            metrics.poll();
            QFAIL("no error");
        } catch (const DataError& error) {
            QCOMPARE(error.file(), file.string());
            QVERIFY2(std::string(error.what()).find("line 3") != std::string::npos, error.what());
        }
    }

    void shorterFileStartsOver()
    {
        QTemporaryDir dir;
        const auto file = test::path(dir, "metrics.jsonl");
        test::writeBytes(file, std::string(kTrain1) + "\n" + kTrain2 + "\n");
        RunMetrics metrics(file);
        QCOMPARE(metrics.poll().size(), std::size_t(2));
        std::ofstream(file, std::ios::binary | std::ios::trunc) << kVal1 << "\n";
        const auto points = metrics.poll();
        QVERIFY(metrics.restarted());
        QCOMPARE(points.size(), std::size_t(1));
        QVERIFY(points[0].kind == MetricsPoint::Kind::Val);
    }
};

QTEST_GUILESS_MAIN(TestRunMetrics)
#include "test_RunMetrics.moc"
