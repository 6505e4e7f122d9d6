#include "run/TrainingCrop.h"

#include <QtTest>

using namespace segstudio;

// The crop a share of the pack's sides gives: one rule for the engine's default and the Train dialog.
class TestTrainingCrop : public QObject {
    Q_OBJECT

private slots:
    void shareOfEachSide_data()
    {
        QTest::addColumn<int>("imageHeight");
        QTest::addColumn<int>("imageWidth");
        QTest::addColumn<double>("share");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::newRow("CamVid 360x480, the default") << 360 << 480 << run::TrainingCrop::kDefaultShare << 144 << 192;
        QTest::newRow("half of 720x960") << 720 << 960 << 0.5 << 360 << 480;
        QTest::newRow("rounds half up") << 365 << 480 << 0.4 << 146 << 192;
        QTest::newRow("never below 144x192") << 400 << 500 << 0.3 << 144 << 192;
        QTest::newRow("portrait: 192 on the long side") << 480 << 360 << 0.4 << 192 << 144;
        QTest::newRow("most of a 180x240 pack: whole") << 180 << 240 << 0.4 << 0 << 0;
        QTest::newRow("a tiny pack: whole") << 32 << 48 << 0.4 << 0 << 0;
        QTest::newRow("share 0: whole") << 360 << 480 << 0.0 << 0 << 0;
        QTest::newRow("share 1: whole") << 360 << 480 << 1.0 << 0 << 0;
        QTest::newRow("79 % of a side is still a crop") << 1000 << 1000 << 0.79 << 790 << 790;
        QTest::newRow("80 % is whole") << 1000 << 1000 << 0.8 << 0 << 0;
    }

    void shareOfEachSide()
    {
        QFETCH(int, imageHeight);
        QFETCH(int, imageWidth);
        QFETCH(double, share);
        QFETCH(int, height);
        QFETCH(int, width);
        const auto crop = run::TrainingCrop::ofShare(imageHeight, imageWidth, share);
        QCOMPARE(crop.height, height);
        QCOMPARE(crop.width, width);
        QCOMPARE(crop.isWholeImage(), height == 0);
    }
};

QTEST_GUILESS_MAIN(TestTrainingCrop)
#include "test_TrainingCrop.moc"
