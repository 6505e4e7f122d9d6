#include "UiTestProject.h"
#include "browser/ImageListModel.h"
#include "browser/LabelStatsLoader.h"
#include "browser/ThumbnailCache.h"
#include "document/ProjectDocument.h"

#include <QIcon>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <fstream>
#include <memory>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::test::ImageSpec;
using segstudio::ui::browser::ImageListModel;

class TestImageListModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_project = segstudio::test::writeProject(
            m_dir->path(), {{"a.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                           {"b.png", Split::Val, LabelStatus::InProgress, {2}, 1},
                           {"c.png", Split::Test, LabelStatus::Unlabelled, {}, 0}});
        m_document = std::make_unique<segstudio::document::ProjectDocument>(m_project);
    }

    void cleanup() { m_document.reset(); }

    void rowsAndColumnsFollowTheProject()
    {
        ImageListModel model;
        QCOMPARE(model.rowCount(), 0);
        model.setDocument(m_document.get());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(ImageListModel::ColumnCount));
        QCOMPARE(model.index(1, ImageListModel::NameColumn).data().toString(), QStringLiteral("images/b.png"));
        QCOMPARE(model.index(1, ImageListModel::SplitColumn).data().toString(), QStringLiteral("Val"));
        QCOMPARE(model.index(1, ImageListModel::StatusColumn).data().toString(), QStringLiteral("In progress"));
        QCOMPARE(model.index(2, 0).data(ImageListModel::EntryIndexRole).toULongLong(), 2ULL);
        model.setDocument(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // The cells use the same names as the browser's filters and menus (one pair of functions).
    void splitAndStatusNamesAreTheSharedOnes()
    {
        ImageListModel model;
        model.setDocument(m_document.get());
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto& entry = m_document->project().entry(std::size_t(row));
            QCOMPARE(model.index(row, ImageListModel::SplitColumn).data().toString(), ImageListModel::splitName(entry.split));
            QCOMPARE(model.index(row, ImageListModel::StatusColumn).data().toString(),
                     ImageListModel::statusName(entry.status));
        }
        QCOMPARE(ImageListModel::splitName(Split::Unassigned), QStringLiteral("Unassigned"));
        QCOMPARE(ImageListModel::statusName(LabelStatus::Unlabelled), QStringLiteral("Unlabelled"));
    }

    void statsArriveInTheBackground()
    {
        ImageListModel model;
        QSignalSpy finished(&model, &ImageListModel::statsFinished);
        model.setDocument(m_document.get());
        QVERIFY(finished.wait(5000));
        QVERIFY(model.statsComplete());
        QCOMPARE(model.index(0, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 1.0);
        QCOMPARE(model.index(1, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 0.5);
        QCOMPARE(model.index(2, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 0.0);
        QCOMPARE(model.index(0, ImageListModel::ClassesColumn).data().toString(), QStringLiteral("road, car"));
        QCOMPARE(model.index(1, ImageListModel::ClassesColumn).data().toString(), QStringLiteral("sky"));
        QCOMPARE(model.index(1, ImageListModel::LabelledColumn).data().toString(), QStringLiteral("50.0 %"));
        const QByteArray mask = model.index(1, 0).data(ImageListModel::ClassMaskRole).toByteArray();
        QCOMPARE(mask.size(), 32);
        QCOMPARE(uchar(mask[0]), uchar(1 << 2));
        QVERIFY(model.problemRows().isEmpty());
    }

    void missingAndBrokenImagesAreProblemsNamingTheFile()
    {
        std::filesystem::remove(m_project.imagePath(0));
        {
            std::ofstream broken(m_project.imagePath(2), std::ios::trunc | std::ios::binary);
            broken << "not a png";
        }
        ImageListModel model;
        QSignalSpy finished(&model, &ImageListModel::statsFinished);
        model.setDocument(m_document.get());
        QVERIFY(finished.wait(5000));
        QCOMPARE(model.problemRows(), (QList<int>{0, 2}));
        const QString missing = model.index(0, 0).data(ImageListModel::ProblemRole).toString();
        QVERIFY2(missing.contains(QStringLiteral("a.png")) && missing.contains(QStringLiteral("not found")), qPrintable(missing));
        QVERIFY(model.index(2, 0).data(ImageListModel::ProblemRole).toString().contains(QStringLiteral("c.png")));
        // The healthy row is unaffected.
        QCOMPARE(model.index(1, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 0.5);
    }

    // The model is a read-only view: edits go to the document and come back as row changes.
    void documentEditsShowAsRowChanges()
    {
        ImageListModel model;
        model.setDocument(m_document.get());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(m_document->setSplit({0, 2, 1}, Split::Val));
        QCOMPARE(changed.count(), 2);  // row 1 was already val
        QCOMPARE(model.index(2, 0).data(ImageListModel::SplitRole).toInt(), int(Split::Val));
        QVERIFY(m_document->setStatus({1}, LabelStatus::Reviewed));
        QCOMPARE(model.index(1, 0).data(ImageListModel::StatusRole).toInt(), int(LabelStatus::Reviewed));
        QVERIFY(!m_document->setStatus({1}, LabelStatus::Reviewed));  // no change, no command
        m_document->undoStack()->undo();
        QCOMPARE(model.index(1, 0).data(ImageListModel::StatusRole).toInt(), int(LabelStatus::InProgress));
        m_document->undoStack()->undo();
        QCOMPARE(model.index(2, 0).data(ImageListModel::SplitRole).toInt(), int(Split::Test));
    }

    void removedImagesLeaveAndComeBackWithUndo()
    {
        ImageListModel model;
        QSignalSpy finished(&model, &ImageListModel::statsFinished);
        model.setDocument(m_document.get());
        QVERIFY(finished.wait(5000));
        QVERIFY(m_document->removeImages({0}));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 0).data(ImageListModel::PathRole).toString(), QStringLiteral("images/b.png"));
        QVERIFY(finished.wait(5000));
        QCOMPARE(model.index(0, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 0.5);
        m_document->undoStack()->undo();
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, 0).data(ImageListModel::PathRole).toString(), QStringLiteral("images/a.png"));
        QVERIFY(finished.wait(5000));
        QCOMPARE(model.index(0, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 1.0);
    }

    void liveLabelledFractionAndIoU()
    {
        ImageListModel model;
        model.setDocument(m_document.get());
        QVERIFY(!model.hasIoU());
        QCOMPARE(model.index(2, 0).data(ImageListModel::IoURole).toDouble(), -1.0);
        model.setLabelledFraction(2, 0.25);
        QCOMPARE(model.index(2, 0).data(ImageListModel::LabelledFractionRole).toDouble(), 0.25);
        model.setIoU(2, 0.75);
        QVERIFY(model.hasIoU());
        QCOMPARE(model.index(2, ImageListModel::IoUColumn).data().toString(), QStringLiteral("0.750"));
        model.setIoU(2, std::nullopt);
        QVERIFY(!model.hasIoU());
    }

    void nameColumnDecorationIsTheThumbnail()
    {
        ImageListModel model;
        model.setDocument(m_document.get());
        const QModelIndex name = model.index(0, ImageListModel::NameColumn);
        QSignalSpy ready(model.thumbnails(), &segstudio::ui::browser::ThumbnailCache::thumbnailReady);
        // Asking queues the thumbnail; until it is made there is no decoration.
        if (name.data(Qt::DecorationRole).isNull())
            QVERIFY(ready.wait(5000));
        const QIcon icon = name.data(Qt::DecorationRole).value<QIcon>();
        QVERIFY(!icon.isNull());
        QVERIFY(!icon.pixmap(QSize(32, 24)).isNull());
        QVERIFY(!model.index(0, ImageListModel::SplitColumn).data(Qt::DecorationRole).isValid());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    segstudio::data::Project m_project;
    std::unique_ptr<segstudio::document::ProjectDocument> m_document;
};

QTEST_MAIN(TestImageListModel)
#include "test_ImageListModel.moc"
