#include "browser/ImageListModel.h"
#include "browser/ImageNavigator.h"
#include "data/project/ImageEntry.h"

#include <QStandardItemModel>
#include <QTest>

using segstudio::data::LabelStatus;
using segstudio::ui::browser::ImageListModel;
using segstudio::ui::browser::ImageNavigator;

class TestImageNavigator : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        // Rows as the browser shows them: statuses L U L I R U.
        const LabelStatus statuses[] = {LabelStatus::Labelled, LabelStatus::Unlabelled, LabelStatus::Labelled,
                                        LabelStatus::InProgress, LabelStatus::Reviewed, LabelStatus::Unlabelled};
        m_model.clear();
        for (LabelStatus status : statuses) {
            auto* item = new QStandardItem;
            item->setData(int(status), ImageListModel::StatusRole);
            m_model.appendRow(item);
        }
    }

    void find_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("step");
        QTest::addColumn<bool>("unlabelledOnly");
        QTest::addColumn<int>("expected");  // -1 = none

        QTest::newRow("next from nothing") << -1 << 1 << false << 0;
        QTest::newRow("next") << 2 << 1 << false << 3;
        QTest::newRow("next at the end") << 5 << 1 << false << -1;
        QTest::newRow("previous") << 3 << -1 << false << 2;
        QTest::newRow("previous at the start") << 0 << -1 << false << -1;
        QTest::newRow("previous from nothing is the last") << -1 << -1 << false << 5;
        QTest::newRow("next unlabelled skips labelled") << 1 << 1 << true << 3;
        QTest::newRow("next unlabelled skips reviewed") << 3 << 1 << true << 5;
        QTest::newRow("no unlabelled after the last") << 5 << 1 << true << -1;
        QTest::newRow("next unlabelled from nothing") << -1 << 1 << true << 1;
    }

    void find()
    {
        QFETCH(int, from);
        QFETCH(int, step);
        QFETCH(bool, unlabelledOnly);
        QFETCH(int, expected);
        const auto found = ImageNavigator::find(m_model, from, step,
                                                unlabelledOnly ? ImageNavigator::Predicate(&ImageNavigator::needsLabelling)
                                                               : ImageNavigator::Predicate());
        QCOMPARE(found.value_or(-1), expected);
    }

    // Issue 12's labeling queue: images still to label, most uncertain first, wrapping round.
    void queueFollowsTheUncertainty()
    {
        // Statuses L U L I R U with uncertainties .9 .2 .8 .7 .95 -; only U/I rows with a value queue.
        const double uncertainty[] = {0.9, 0.2, 0.8, 0.7, 0.95, -1.0};
        for (int row = 0; row < 6; ++row)
            m_model.item(row)->setData(uncertainty[row], ImageListModel::UncertaintyRole);
        QCOMPARE(ImageNavigator::nextInQueue(m_model, -1).value_or(-1), 3);  // .7, the most uncertain to label
        QCOMPARE(ImageNavigator::nextInQueue(m_model, 3).value_or(-1), 1);   // then .2
        QCOMPARE(ImageNavigator::nextInQueue(m_model, 1).value_or(-1), 3);   // wraps round
        QCOMPARE(ImageNavigator::nextInQueue(m_model, 0).value_or(-1), 3);   // a labelled image is not queued
        m_model.item(1)->setData(0.7, ImageListModel::UncertaintyRole);       // a tie keeps row order
        QCOMPARE(ImageNavigator::nextInQueue(m_model, -1).value_or(-1), 1);
        m_model.item(1)->setData(int(LabelStatus::Labelled), ImageListModel::StatusRole);
        m_model.item(3)->setData(int(LabelStatus::Labelled), ImageListModel::StatusRole);
        QVERIFY(!ImageNavigator::nextInQueue(m_model, -1));  // all labelled (row 5 was never predicted)
    }

    void emptyModelHasNothing()
    {
        QStandardItemModel empty;
        QVERIFY(!ImageNavigator::find(empty, -1, 1));
        QVERIFY(!ImageNavigator::find(empty, -1, -1));
    }

private:
    QStandardItemModel m_model;
};

QTEST_MAIN(TestImageNavigator)
#include "test_ImageNavigator.moc"
