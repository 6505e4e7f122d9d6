#include "data/project/DatasetRelabeler.h"

#include <QtTest>

using namespace segstudio::data;

// The id table of a merge or delete, applied to one map in memory (RelabelTransaction applies it
// to a whole project on disk: tests/data/test_RelabelTransaction.cpp).
class TestDatasetRelabeler : public QObject {
    Q_OBJECT

private:
    static cv::Mat sampleMap()
    {
        cv::Mat labels(16, 24, CV_8UC1, cv::Scalar(0));
        labels(cv::Rect(0, 0, 10, 16)).setTo(1);  // 160 px of class 1
        labels(cv::Rect(20, 0, 4, 4)).setTo(255);
        return labels;
    }

private slots:
    void applyMapsInMemory_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::addColumn<int>("changed");
        QTest::newRow("merge 1 into 2") << 1 << 2 << 160;
        QTest::newRow("delete 1") << 1 << 255 << 160;
        QTest::newRow("absent class") << 7 << 2 << 0;
        QTest::newRow("onto itself") << 0 << 0 << 0;
    }

    void applyMapsInMemory()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        QFETCH(int, changed);
        const cv::Mat original = sampleMap();
        cv::Mat labels = original.clone();
        DatasetRelabeler relabeler;
        relabeler.map(from, to);
        QCOMPARE(relabeler.isIdentity(), from == to);
        QCOMPARE(relabeler.apply(labels), std::int64_t(changed));
        QCOMPARE(cv::countNonZero(labels == from), from == to ? cv::countNonZero(original == from) : 0);
        QCOMPARE(cv::countNonZero(labels == to), cv::countNonZero(original == to) + (from == to ? 0 : changed));
    }

    void rejectsIdsOutOfRange()
    {
        DatasetRelabeler relabeler;
        QVERIFY_THROWS_EXCEPTION(std::exception, relabeler.map(-1, 2));
        QVERIFY_THROWS_EXCEPTION(std::exception, relabeler.map(1, 256));
    }
};

QTEST_APPLESS_MAIN(TestDatasetRelabeler)
#include "test_DatasetRelabeler.moc"
