#include "UiTestProject.h"
#include "browser/ThumbnailCache.h"
#include "browser/ThumbnailRenderer.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using segstudio::data::LabelStatus;
using segstudio::data::Split;
using segstudio::ui::browser::ThumbnailCache;
using segstudio::ui::browser::ThumbnailRenderer;

class TestThumbnailCache : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_project = segstudio::test::writeProject(m_dir->path(), {{"a.png", Split::Train, LabelStatus::Labelled, {1}, 1},
                                                                  {"b.png", Split::Val, LabelStatus::Unlabelled, {}, 0},
                                                                  {"c.png", Split::Val, LabelStatus::Unlabelled, {}, 0}});
    }

    void rendersFittedThumbnailsOnRequest()
    {
        ThumbnailCache cache;
        cache.setThumbnailSize(QSize(20, 20));
        cache.setSources(sources(), m_project.schema());
        QSignalSpy ready(&cache, &ThumbnailCache::thumbnailReady);
        QVERIFY(cache.thumbnail(0, false).isNull());  // queued, not decoded on this thread
        QVERIFY(ready.wait(5000));
        QCOMPARE(ready.first().first().toInt(), 0);
        const QImage image = cache.thumbnail(0, false);
        // 40×30 fitted into 20×20 keeps the aspect ratio.
        QCOMPARE(image.size(), QSize(20, 15));
        QCOMPARE(cache.pendingCount(), 0);
    }

    void overlayTintsLabelledPixelsOnly()
    {
        const auto schema = m_project.schema();
        const QImage plain = ThumbnailRenderer::render(m_project.imagePath(0), m_project.labelMapPath(0), schema, QSize(40, 30), false);
        const QImage overlay = ThumbnailRenderer::render(m_project.imagePath(0), m_project.labelMapPath(0), schema, QSize(40, 30), true);
        QCOMPARE(plain.size(), QSize(40, 30));
        // Top half is class 1 ("car", 64,0,128), bottom half unlabelled.
        QVERIFY(plain.pixelColor(5, 5) != overlay.pixelColor(5, 5));
        QCOMPARE(plain.pixelColor(5, 25), overlay.pixelColor(5, 25));
        const QColor blended = overlay.pixelColor(5, 5);
        const QColor photo = plain.pixelColor(5, 5);
        QVERIFY(qAbs(blended.red() - (photo.red() + 64) / 2) <= 1);
        QVERIFY(qAbs(blended.blue() - (photo.blue() + 128) / 2) <= 1);
    }

    void brokenImagesFailWithTheReason()
    {
        std::filesystem::remove(m_project.imagePath(1));
        std::ofstream(m_project.imagePath(2), std::ios::trunc) << "garbage";
        ThumbnailCache cache;
        cache.setSources(sources(), m_project.schema());
        QSignalSpy failed(&cache, &ThumbnailCache::thumbnailFailed);
        cache.thumbnail(1, false);
        cache.thumbnail(2, false);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 5000);
        QVERIFY2(cache.problem(1).contains(QStringLiteral("b.png")), qPrintable(cache.problem(1)));
        QVERIFY2(cache.problem(2).contains(QStringLiteral("c.png")), qPrintable(cache.problem(2)));
        // A failed row is not retried on every paint.
        QVERIFY(cache.thumbnail(1, false).isNull());
        QCOMPARE(cache.pendingCount(), 0);
    }

    void memoryStaysWithinBudget()
    {
        ThumbnailCache cache;
        cache.setThumbnailSize(QSize(40, 30));
        cache.setSources(sources(), m_project.schema());
        const qint64 one = 40LL * 30 * 3 + 40;  // RGB888 rows are padded to 4 bytes
        cache.setMemoryBudget(one + one / 2);   // room for one thumbnail only
        QSignalSpy ready(&cache, &ThumbnailCache::thumbnailReady);
        cache.thumbnail(0, false);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 5000);
        cache.thumbnail(1, false);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 5000);
        QVERIFY(cache.memoryUsed() <= cache.memoryBudget());
        QVERIFY(!cache.thumbnail(1, false).isNull());  // the newest stays
        QVERIFY(cache.thumbnail(0, false).isNull());   // the oldest was evicted (and is queued again)
    }

    void diskCacheIsWrittenAndReused()
    {
        QTemporaryDir cacheDir;
        {
            ThumbnailCache cache;
            cache.setDiskCacheDir(cacheDir.path());
            cache.setSources(sources(), m_project.schema());
            QSignalSpy ready(&cache, &ThumbnailCache::thumbnailReady);
            cache.thumbnail(0, true);
            QVERIFY(ready.wait(5000));
        }
        const QStringList files = QDir(cacheDir.path()).entryList({QStringLiteral("*.jpg")});
        QCOMPARE(files.size(), 1);
        const auto schema = m_project.schema();
        const QString key =
            ThumbnailRenderer::cacheKey(m_project.imagePath(0), m_project.labelMapPath(0), schema, QSize(160, 120), true);
        QCOMPARE(files.first(), key + QStringLiteral(".jpg"));
        // The plain and overlay thumbnails are different files; a changed image gets a new key.
        QVERIFY(key != ThumbnailRenderer::cacheKey(m_project.imagePath(0), m_project.labelMapPath(0), schema, QSize(160, 120), false));
        std::filesystem::last_write_time(m_project.imagePath(0), std::filesystem::file_time_type::clock::now() + std::chrono::hours(1));
        QVERIFY(key != ThumbnailRenderer::cacheKey(m_project.imagePath(0), m_project.labelMapPath(0), schema, QSize(160, 120), true));
    }

    // A recolour reaches the cache as new sources with the new schema (ImageListModel::
    // onSchemaChanged): the overlay must be drawn again in the new colour, not read back from the
    // disk cache file of the old one (a render is exact; the JPEG of the old colour is far off).
    void recolouredClassIsRenderedAnew()
    {
        QTemporaryDir cacheDir;
        ThumbnailCache cache;
        cache.setDiskCacheDir(cacheDir.path());
        cache.setThumbnailSize(QSize(40, 30));
        cache.setSources(sources(), m_project.schema());
        QSignalSpy ready(&cache, &ThumbnailCache::thumbnailReady);
        QVERIFY(cache.thumbnail(0, true).isNull());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 10000);
        const QColor photo =
            ThumbnailRenderer::render(m_project.imagePath(0), {}, m_project.schema(), QSize(40, 30), false).pixelColor(5, 5);
        const QColor before = cache.thumbnail(0, true).pixelColor(5, 5);  // top half: "car" (64, 0, 128)
        QVERIFY2(qAbs(before.red() - (photo.red() + 64) / 2) <= 1, qPrintable(before.name()));

        segstudio::data::ClassSchema recoloured = m_project.schema();
        segstudio::data::LabelClass car = *recoloured.find(1);
        car.color = segstudio::data::Rgb{255, 255, 0};
        recoloured.update(car);
        cache.setSources(sources(), recoloured);
        QVERIFY(cache.thumbnail(0, true).isNull());  // the memory cache went with the old schema
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 10000);
        const QColor after = cache.thumbnail(0, true).pixelColor(5, 5);
        QVERIFY2(qAbs(after.red() - (photo.red() + 255) / 2) <= 1, qPrintable(after.name()));
        QVERIFY2(qAbs(after.green() - (photo.green() + 255) / 2) <= 1, qPrintable(after.name()));
        // One file per palette; the plain thumbnail does not depend on the colours.
        QCOMPARE(QDir(cacheDir.path()).entryList({QStringLiteral("*.jpg")}).size(), 2);
        const auto plainKey = [&](const segstudio::data::ClassSchema& schema) {
            return ThumbnailRenderer::cacheKey(m_project.imagePath(0), m_project.labelMapPath(0), schema, QSize(40, 30), false);
        };
        QCOMPARE(plainKey(recoloured), plainKey(m_project.schema()));
    }

    // A render under way when the size changes is dropped, not cached as a thumbnail of the new
    // size. No sleep is needed to catch it under way: its result reaches the cache only through
    // this thread's event loop, which does not run between the request and the size change.
    void aSizeChangeDropsRendersUnderWayAtTheOldSize()
    {
        ThumbnailCache cache;
        cache.setThumbnailSize(QSize(20, 20));
        cache.setSources(sources(), m_project.schema());
        QSignalSpy ready(&cache, &ThumbnailCache::thumbnailReady);
        QVERIFY(cache.thumbnail(0, false).isNull());  // a 20x20 render starts on a worker
        cache.setThumbnailSize(QSize(40, 30));
        QVERIFY(cache.thumbnail(0, false).isNull());  // the view asks again at the new size
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 10000);
        QCOMPARE(cache.thumbnail(0, false).size(), QSize(40, 30));
        QCOMPARE(cache.pendingCount(), 0);
    }

private:
    std::vector<ThumbnailCache::Source> sources() const
    {
        std::vector<ThumbnailCache::Source> list;
        for (std::size_t i = 0; i < m_project.size(); ++i)
            list.push_back({m_project.imagePath(i), m_project.labelMapPath(i)});
        return list;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    segstudio::data::Project m_project;
};

QTEST_MAIN(TestThumbnailCache)
#include "test_ThumbnailCache.moc"
