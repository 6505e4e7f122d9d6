#include "UiTestProject.h"
#include "browser/DatasetBrowser.h"
#include "browser/ImageFilterProxyModel.h"
#include "browser/ImageListModel.h"
#include "document/ProjectDocument.h"

#include <QAction>
#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::browser::DatasetBrowser;
using segstudio::ui::browser::ImageFilterProxyModel;
using segstudio::ui::browser::ImageListModel;

// The browser widget without a window: the IoU column and sort entry appear only while some image
// has an IoU.
class TestDatasetBrowser : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_project = segstudio::test::writeProject(m_dir.path(), {{"a.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                                 {"b.png", Split::Val, LabelStatus::Unlabelled, {}, 0}});
        m_document = std::make_unique<segstudio::document::ProjectDocument>(m_project);
    }

    void iouColumnAndSortEntryOnlyWhileThereIsAnIoU()
    {
        DatasetBrowser browser;
        browser.setDocument(m_document.get());
        auto* sortKey = browser.findChild<QComboBox*>(QStringLiteral("sortKey"));
        QVERIFY(sortKey);
        const int iou = int(ImageFilterProxyModel::SortKey::IoU);
        QVERIFY(browser.listView()->isColumnHidden(ImageListModel::IoUColumn));
        QVERIFY(!browser.listView()->isColumnHidden(ImageListModel::ClassesColumn));
        QCOMPARE(sortKey->findData(iou), -1);

        browser.model()->setIoU(1, 0.5);
        QVERIFY(!browser.listView()->isColumnHidden(ImageListModel::IoUColumn));
        QVERIFY(sortKey->findData(iou) >= 0);
        sortKey->setCurrentIndex(sortKey->findData(iou));
        QCOMPARE(browser.proxy()->sortKey(), ImageFilterProxyModel::SortKey::IoU);

        // The last IoU goes: column and entry go, and the sort falls back to names.
        browser.model()->setIoU(1, std::nullopt);
        QVERIFY(browser.listView()->isColumnHidden(ImageListModel::IoUColumn));
        QCOMPARE(sortKey->findData(iou), -1);
        QCOMPARE(browser.proxy()->sortKey(), ImageFilterProxyModel::SortKey::Name);

        // A reset (another project, or the same again) keeps the column hidden.
        browser.model()->setIoU(0, 0.9);
        browser.setDocument(nullptr);
        browser.setDocument(m_document.get());
        QVERIFY(browser.listView()->isColumnHidden(ImageListModel::IoUColumn));
        QCOMPARE(sortKey->findData(iou), -1);
    }

    // Issue 51, item 1: frames of a sequence, one sequence at a time in frame order, each entry
    // saying how many of its frames are labelled (and following status changes); a project
    // without sequences shows no such filter.
    void framesAreGroupedBySequence()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto project = segstudio::test::writeProject(
            dir.path(), {{"seq/frame_10.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                         {"seq/frame_9.png", Split::Train, LabelStatus::Labelled, {1}, 0},
                         {"seq/frame_1.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                         {"alone.png", Split::Val, LabelStatus::Unlabelled, {}, 0}});
        segstudio::document::ProjectDocument document(project);
        DatasetBrowser browser;
        browser.setDocument(&document);
        auto* sequences = browser.findChild<QComboBox*>(QStringLiteral("sequenceFilter"));
        QVERIFY(sequences);
        QVERIFY(!sequences->isHidden());
        QCOMPARE(sequences->count(), 2);  // any, and the one sequence (alone.png is no frame)
        QVERIFY2(sequences->itemText(1).contains(QStringLiteral("3 frames, 1 labelled")), qPrintable(sequences->itemText(1)));
        sequences->setCurrentIndex(1);
        emit sequences->activated(1);
        QCOMPARE(browser.proxy()->sortKey(), ImageFilterProxyModel::SortKey::Frame);
        QStringList shown;
        for (int row = 0; row < browser.proxy()->rowCount(); ++row)
            shown << browser.proxy()->index(row, 0).data(ImageListModel::PathRole).toString().section(u'/', -2);
        QCOMPARE(shown, segstudio::test::strings({"seq/frame_1.png", "seq/frame_9.png", "seq/frame_10.png"}));
        QVERIFY(document.setStatus({0}, LabelStatus::Reviewed));  // frame_10
        QTRY_VERIFY2(sequences->itemText(1).contains(QStringLiteral("3 frames, 2 labelled")), qPrintable(sequences->itemText(1)));
        QCOMPARE(browser.proxy()->rowCount(), 3);  // the chosen sequence stays chosen

        DatasetBrowser other;
        other.setDocument(m_document.get());  // a.png, b.png: no sequence
        QVERIFY(other.findChild<QComboBox*>(QStringLiteral("sequenceFilter"))->isHidden());
    }

    // Issue 27, item 17: Q on an empty queue says why: nothing predicted, or nothing left to label.
    void anEmptyQueueSaysWhy()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto project = segstudio::test::writeProject(dir.path(), {{"a.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                                                                  {"b.png", Split::Val, LabelStatus::Labelled, {1}, 0}});
        segstudio::document::ProjectDocument document(project);
        DatasetBrowser browser;
        browser.setDocument(&document);
        QSignalSpy messages(&browser, &DatasetBrowser::statusMessage);
        browser.nextInQueueAction()->trigger();
        QCOMPARE(messages.count(), 1);
        QVERIFY2(messages.last().first().toString().contains(QStringLiteral("predict the images")),
                 qPrintable(messages.last().first().toString()));
        ImageListModel::Scores predicted;
        predicted.uncertainty = 0.4;
        browser.model()->setScores(1, predicted);  // only the labelled image has a prediction
        document.setStatus({0}, LabelStatus::Labelled);
        browser.nextInQueueAction()->trigger();
        QCOMPARE(messages.count(), 2);
        QVERIFY2(messages.last().first().toString().contains(QStringLiteral("every image is labelled")),
                 qPrintable(messages.last().first().toString()));
    }

    void filtersUseTheModelsNames()
    {
        DatasetBrowser browser;
        auto* split = browser.findChild<QComboBox*>(QStringLiteral("splitFilter"));
        auto* status = browser.findChild<QComboBox*>(QStringLiteral("statusFilter"));
        QVERIFY(split && status);
        QCOMPARE(split->itemText(split->findData(int(Split::Val))), ImageListModel::splitName(Split::Val));
        QCOMPARE(split->itemText(split->findData(int(Split::Unassigned))), ImageListModel::splitName(Split::Unassigned));
        QCOMPARE(status->itemText(status->findData(int(LabelStatus::InProgress))),
                 ImageListModel::statusName(LabelStatus::InProgress));
    }

private:
    QTemporaryDir m_dir;
    segstudio::data::Project m_project;
    std::unique_ptr<segstudio::document::ProjectDocument> m_document;
};

QTEST_MAIN(TestDatasetBrowser)
#include "test_DatasetBrowser.moc"
