#include "UiTestProject.h"
#include "browser/ImageFilterProxyModel.h"
#include "browser/ImageListModel.h"
#include "data/project/FrameSequence.h"
#include "document/ProjectDocument.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::browser::ImageFilterProxyModel;
using segstudio::ui::browser::ImageListModel;

namespace {

QStringList visibleNames(const QAbstractItemModel& model)
{
    QStringList names;
    for (int row = 0; row < model.rowCount(); ++row)
        names << model.index(row, 0).data(ImageListModel::PathRole).toString().section(u'/', -1);
    return names;
}

// lessThan is protected; the strict-ordering test calls it directly.
class ExposedProxy : public ImageFilterProxyModel {
public:
    using ImageFilterProxyModel::lessThan;
};

// A project of these images on disk, its document, the model over it (label stats read) and a
// proxy on the model.
struct ProxyOverProject {
    QTemporaryDir dir;
    segstudio::data::Project project;
    std::unique_ptr<segstudio::document::ProjectDocument> document;
    ImageListModel model;
    ExposedProxy proxy;

    explicit ProxyOverProject(const std::vector<segstudio::test::ImageSpec>& images)
        : project(segstudio::test::writeProject(dir.path(), images)),
          document(std::make_unique<segstudio::document::ProjectDocument>(project))
    {
        QSignalSpy finished(&model, &ImageListModel::statsFinished);
        model.setDocument(document.get());
        if (!model.statsComplete())
            finished.wait(5000);
        proxy.setSourceModel(&model);
    }
};

}  // namespace

class TestImageFilterProxyModel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        // Names are deliberately not in insertion order, so sorting by name is visible.
        m_project = segstudio::test::writeProject(
            m_dir.path(), {{"delta.png", Split::Train, LabelStatus::Labelled, {0, 1}, 0},
                           {"alpha.png", Split::Val, LabelStatus::InProgress, {2}, 1},
                           {"charlie.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                           {"bravo.png", Split::Test, LabelStatus::Reviewed, {1}, 3},
                           {"echo_street.png", Split::Train, LabelStatus::Labelled, {1, 2}, 2}});
        std::filesystem::remove(m_project.imagePath(2));  // charlie: a problem
        m_document = std::make_unique<segstudio::document::ProjectDocument>(m_project);
        m_model.setDocument(m_document.get());
        QSignalSpy finished(&m_model, &ImageListModel::statsFinished);
        QVERIFY(finished.wait(5000));
        m_proxy.setSourceModel(&m_model);
    }

    void init()
    {
        m_proxy.setSplitFilter(std::nullopt);
        m_proxy.setStatusFilter(std::nullopt);
        m_proxy.setClassFilter(std::nullopt);
        m_proxy.setProblemsOnly(false);
        m_proxy.setSearchText({});
        m_proxy.setSortKey(ImageFilterProxyModel::SortKey::Name);
    }

    void filters_data()
    {
        QTest::addColumn<int>("split");   // -1 = any
        QTest::addColumn<int>("status");  // -1 = any
        QTest::addColumn<int>("classId"); // -1 = any
        QTest::addColumn<bool>("problems");
        QTest::addColumn<QString>("search");
        QTest::addColumn<QStringList>("expected");

        const QStringList all = segstudio::test::strings({"alpha.png", "bravo.png", "charlie.png", "delta.png", "echo_street.png"});
        QTest::newRow("nothing") << -1 << -1 << -1 << false << QString() << all;
        QTest::newRow("train") << int(Split::Train) << -1 << -1 << false << QString()
                               << segstudio::test::strings({"charlie.png", "delta.png", "echo_street.png"});
        QTest::newRow("labelled") << -1 << int(LabelStatus::Labelled) << -1 << false << QString()
                                  << segstudio::test::strings({"delta.png", "echo_street.png"});
        QTest::newRow("has car") << -1 << -1 << 1 << false << QString()
                                 << segstudio::test::strings({"bravo.png", "delta.png", "echo_street.png"});
        QTest::newRow("train with sky") << int(Split::Train) << -1 << 2 << false << QString() << segstudio::test::strings({"echo_street.png"});
        QTest::newRow("problems") << -1 << -1 << -1 << true << QString() << segstudio::test::strings({"charlie.png"});
        QTest::newRow("search, any case") << -1 << -1 << -1 << false << QStringLiteral("STREET")
                                          << segstudio::test::strings({"echo_street.png"});
        QTest::newRow("search no match") << -1 << -1 << -1 << false << QStringLiteral("zulu") << QStringList{};
        QTest::newRow("val and labelled") << int(Split::Val) << int(LabelStatus::Labelled) << -1 << false << QString()
                                          << QStringList{};
    }

    void filters()
    {
        QFETCH(int, split);
        QFETCH(int, status);
        QFETCH(int, classId);
        QFETCH(bool, problems);
        QFETCH(QString, search);
        QFETCH(QStringList, expected);
        m_proxy.setSplitFilter(split < 0 ? std::nullopt : std::optional(Split(split)));
        m_proxy.setStatusFilter(status < 0 ? std::nullopt : std::optional(LabelStatus(status)));
        m_proxy.setClassFilter(classId < 0 ? std::nullopt : std::optional(classId));
        m_proxy.setProblemsOnly(problems);
        m_proxy.setSearchText(search);
        QCOMPARE(visibleNames(m_proxy), expected);
    }

    void sorts_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QStringList>("expected");
        // Labelled fractions: delta 1, alpha 0.5, bravo 0.25, echo 0.5, charlie 0 (no labels).
        QTest::newRow("labelled ascending, ties by name")
            << int(ImageFilterProxyModel::SortKey::LabelledFraction) << false
            << segstudio::test::strings({"charlie.png", "bravo.png", "alpha.png", "echo_street.png", "delta.png"});
        QTest::newRow("labelled descending, ties still by name")
            << int(ImageFilterProxyModel::SortKey::LabelledFraction) << true
            << segstudio::test::strings({"delta.png", "alpha.png", "echo_street.png", "bravo.png", "charlie.png"});
        QTest::newRow("name descending") << int(ImageFilterProxyModel::SortKey::Name) << true
                                         << segstudio::test::strings({"echo_street.png", "delta.png", "charlie.png", "bravo.png", "alpha.png"});
    }

    void sorts()
    {
        QFETCH(int, key);
        QFETCH(bool, descending);
        QFETCH(QStringList, expected);
        m_proxy.setSortKey(ImageFilterProxyModel::SortKey(key), descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        QCOMPARE(visibleNames(m_proxy), expected);
    }

    // Names differing only in case: the tie-break must still be a strict weak ordering (never
    // both a < b and b < a), or the sort is undefined; case-sensitive order, then row, decides.
    void namesDifferingOnlyInCaseSortStrictly_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("name ascending") << int(ImageFilterProxyModel::SortKey::Name) << false
                                        << segstudio::test::strings({"A.png", "a.png", "b.png"});
        QTest::newRow("name descending") << int(ImageFilterProxyModel::SortKey::Name) << true
                                         << segstudio::test::strings({"b.png", "a.png", "A.png"});
        QTest::newRow("labelled ascending, tie") << int(ImageFilterProxyModel::SortKey::LabelledFraction) << false
                                                 << segstudio::test::strings({"A.png", "a.png", "b.png"});
        QTest::newRow("labelled descending, tie") << int(ImageFilterProxyModel::SortKey::LabelledFraction) << true
                                                  << segstudio::test::strings({"A.png", "a.png", "b.png"});
    }

    void namesDifferingOnlyInCaseSortStrictly()
    {
        QFETCH(int, key);
        QFETCH(bool, descending);
        QFETCH(QStringList, expected);
        ProxyOverProject test({{"b.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"a.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"A.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        QVERIFY(test.model.statsComplete());
        ImageListModel& model = test.model;
        ExposedProxy& proxy = test.proxy;
        proxy.setSortKey(ImageFilterProxyModel::SortKey(key), descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        for (int i = 0; i < model.rowCount(); ++i)
            for (int j = 0; j < model.rowCount(); ++j) {
                const bool ij = proxy.lessThan(model.index(i, 0), model.index(j, 0));
                const bool ji = proxy.lessThan(model.index(j, 0), model.index(i, 0));
                QVERIFY2(!(ij && ji), qPrintable(QStringLiteral("rows %1 and %2 are each less than the other").arg(i).arg(j)));
                QVERIFY2(i == j || ij || ji, qPrintable(QStringLiteral("rows %1 and %2 compare equal").arg(i).arg(j)));
            }
        QCOMPARE(visibleNames(proxy), expected);
    }

    // Issue 27, item 9: "Name" sorts by the file name, the folder only breaking ties (an imported
    // CamVid listed all of test/ before train/).
    // Issue 51: the frame order of counters without zero padding, sequences apart, and a filter
    // to one sequence.
    void framesSortByNumberAndFilterBySequence()
    {
        ProxyOverProject test({{"seq/frame_10.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"other/shot_2.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"seq/frame_9.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"other/shot_1.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"seq/frame_1.png", Split::Train, LabelStatus::Unlabelled, {}, 0}});
        QVERIFY(test.model.statsComplete());
        ImageFilterProxyModel& proxy = test.proxy;
        proxy.setSortKey(ImageFilterProxyModel::SortKey::Name);
        QCOMPARE(visibleNames(proxy), segstudio::test::strings({"frame_1.png", "frame_10.png", "frame_9.png", "shot_1.png", "shot_2.png"}));
        proxy.setSortKey(ImageFilterProxyModel::SortKey::Frame);
        QCOMPARE(visibleNames(proxy), segstudio::test::strings({"shot_1.png", "shot_2.png", "frame_1.png", "frame_9.png", "frame_10.png"}));
        const QString frame1 = test.model.index(4, 0).data(ImageListModel::PathRole).toString();  // .../seq/frame_1.png
        const auto key = segstudio::data::FrameSequence::keyOf(frame1.toStdString());
        QVERIFY(key.valid);
        proxy.setSequenceFilter(QString::fromStdString(key.sequence));
        QCOMPARE(visibleNames(proxy), segstudio::test::strings({"frame_1.png", "frame_9.png", "frame_10.png"}));
        proxy.setSequenceFilter(std::nullopt);
        QCOMPARE(proxy.rowCount(), 5);
    }

    void nameSortsByFileNameBeforeFolder()
    {
        ProxyOverProject test({{"train/0003.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"test/0004.png", Split::Test, LabelStatus::Unlabelled, {}, 0},
                               {"train/0001.png", Split::Train, LabelStatus::Unlabelled, {}, 0},
                               {"test/0002.png", Split::Test, LabelStatus::Unlabelled, {}, 0},
                               {"val/0002.png", Split::Val, LabelStatus::Unlabelled, {}, 0}});
        QVERIFY(test.model.statsComplete());
        ImageFilterProxyModel& proxy = test.proxy;
        proxy.setSortKey(ImageFilterProxyModel::SortKey::Name);
        QStringList paths;
        for (int row = 0; row < proxy.rowCount(); ++row)
            paths << proxy.index(row, 0).data(ImageListModel::PathRole).toString().section(u'/', -2);
        QCOMPARE(paths, segstudio::test::strings({"train/0001.png", "test/0002.png", "val/0002.png", "train/0003.png", "test/0004.png"}));
    }

    void sortsByIoUOnceItExists()
    {
        m_model.setIoU(0, 0.9);  // delta
        m_model.setIoU(3, 0.4);  // bravo
        m_model.setIoU(1, 0.6);  // alpha
        m_proxy.setSortKey(ImageFilterProxyModel::SortKey::IoU, Qt::DescendingOrder);
        QCOMPARE(visibleNames(m_proxy).mid(0, 3), (segstudio::test::strings({"delta.png", "alpha.png", "bravo.png"})));
        // Images without a prediction come last in either order (issue 9.18).
        m_proxy.setSortKey(ImageFilterProxyModel::SortKey::IoU, Qt::AscendingOrder);
        QCOMPARE(visibleNames(m_proxy).mid(0, 3), (segstudio::test::strings({"bravo.png", "alpha.png", "delta.png"})));
        m_proxy.setSortKey(ImageFilterProxyModel::SortKey::IoU, Qt::DescendingOrder);
        // A new IoU moves its row while the sort stays on.
        m_model.setIoU(3, 0.95);
        QCOMPARE(visibleNames(m_proxy).first(), QStringLiteral("bravo.png"));
        for (int row = 0; row < m_model.rowCount(); ++row)
            m_model.setIoU(row, std::nullopt);
    }

    void filterFollowsEdits()
    {
        m_proxy.setSplitFilter(Split::Test);
        QCOMPARE(visibleNames(m_proxy), segstudio::test::strings({"bravo.png"}));
        m_document->setSplit({1}, Split::Test);  // alpha
        QCOMPARE(visibleNames(m_proxy), (segstudio::test::strings({"alpha.png", "bravo.png"})));
        QCOMPARE(m_proxy.rowOfEntry(1), 0);
        QCOMPARE(m_proxy.entryOfRow(1), std::size_t(3));
        QCOMPARE(m_proxy.rowOfEntry(0), -1);  // delta is filtered out
        m_document->setSplit({1}, Split::Val);
    }

private:
    QTemporaryDir m_dir;
    segstudio::data::Project m_project;
    std::unique_ptr<segstudio::document::ProjectDocument> m_document;
    ImageListModel m_model;
    ImageFilterProxyModel m_proxy;
};

QTEST_MAIN(TestImageFilterProxyModel)
#include "test_ImageFilterProxyModel.moc"
