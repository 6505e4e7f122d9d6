#include "TestFiles.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapDeflate.h"
#include "data/labels/LabelMapIO.h"
#include "data/labels/LabelOverlay.h"

#include <QtTest>
#include <opencv2/imgcodecs.hpp>
#include <random>
#include <zlib.h>

using namespace segstudio;
namespace fs = std::filesystem;

class TestLabelMapIO : public QObject {
    Q_OBJECT

private slots:
    // One way to draw labels over a photo (thumbnails and predict overlays): labelled pixels
    // blended, unlabelled ones untouched; thumbnails keep the aspect and scale labels by nearest.
    void labelOverlayAndThumbnail()
    {
        const auto schema = test::threeClasses();
        const cv::Mat rgb(4, 8, CV_8UC3, cv::Scalar(100, 100, 100));
        cv::Mat labels(4, 8, CV_8UC1, cv::Scalar(data::kUnlabelled));
        labels.colRange(0, 4).setTo(1);
        const cv::Mat blended = data::blendLabels(rgb, labels, schema, 0.5);
        const auto colour = schema.find(1)->color;
        const cv::Vec3b mixed = blended.at<cv::Vec3b>(0, 0);
        QCOMPARE(int(mixed[0]), (100 + colour.r + 1) / 2);
        QCOMPARE(blended.at<cv::Vec3b>(0, 7), cv::Vec3b(100, 100, 100));  // unlabelled: the photo
        const cv::Mat small = data::thumbnailOf(rgb, labels, schema, 4, 4, 0.5);
        QCOMPARE(small.size(), cv::Size(4, 2));  // 8x4 fitted into 4x4
        QCOMPARE(small.at<cv::Vec3b>(0, 0), mixed);
        QCOMPARE(small.at<cv::Vec3b>(1, 3), cv::Vec3b(100, 100, 100));
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::blendLabels(rgb, labels.colRange(0, 4).clone(), schema, 0.5));
    }

    void roundTripIsExact()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        const cv::Mat labels = test::patternLabels(37, 53, 3);
        data::writeLabelMap(file, labels, test::threeClasses());
        QVERIFY(test::sameMat(data::readLabelMap(file, test::threeClasses()), labels));

        const std::string bytes = test::readBytes(file);
        data::writeLabelMap(file, data::readLabelMap(file, test::threeClasses()), test::threeClasses());
        QCOMPARE(test::readBytes(file), bytes);
    }

    // Label maps are compressed by SegStudio's own run/row matcher (LabelMapDeflate); zlib's inflate
    // must give back every byte, whatever the content: no repetition at all (every byte a
    // literal), one value (runs longer than a match), repeated rows, runs crossing rows, a row
    // wider than deflate's 32 KB window (no row matches possible), and tiny maps.
    void deflatedRowsInflateToTheSameBytes_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<QString>("content");
        QTest::newRow("noise") << 97 << 61 << "noise";
        QTest::newRow("one value") << 640 << 480 << "uniform";
        QTest::newRow("stripes") << 333 << 100 << "stripes";
        QTest::newRow("blocks with noise") << 480 << 360 << "blocks";
        QTest::newRow("wider than the window") << 40000 << 3 << "blocks";
        QTest::newRow("one pixel") << 1 << 1 << "noise";
        QTest::newRow("one column") << 1 << 300 << "stripes";
    }

    void deflatedRowsInflateToTheSameBytes()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(QString, content);
        std::mt19937 random(7);
        const std::size_t stride = std::size_t(width) + 1;
        std::vector<unsigned char> rows(stride * std::size_t(height));
        for (int y = 0; y < height; ++y) {
            unsigned char* row = rows.data() + stride * std::size_t(y);
            row[0] = 0;
            for (int x = 0; x < width; ++x) {
                const int block = (x / 37 + y / 23) % 5;
                if (content == "noise")
                    row[1 + x] = static_cast<unsigned char>(random() % 256);
                else if (content == "uniform")
                    row[1 + x] = 255;
                else if (content == "stripes")
                    row[1 + x] = static_cast<unsigned char>((x + y / 7) % 3);
                else
                    row[1 + x] = random() % 50 == 0 ? static_cast<unsigned char>(200 + random() % 56)
                                                    : static_cast<unsigned char>(block == 4 ? 255 : block);
            }
        }
        const std::vector<unsigned char> packed = data::deflateLabelRows(rows.data(), rows.size(), stride);
        std::vector<unsigned char> inflated(rows.size() + 1);
        uLongf inflatedSize = uLongf(inflated.size());
        QCOMPARE(uncompress(inflated.data(), &inflatedSize, packed.data(), uLong(packed.size())), Z_OK);
        inflated.resize(inflatedSize);
        QVERIFY(inflated == rows);
        if (content == "uniform")
            QVERIFY2(packed.size() < rows.size() / 100, qPrintable(QString::number(packed.size())));
    }

    // What other programs see: OpenCV's PNG reader (its own libpng use) shows every value 0..255
    // in its class colour, over rows of every value and rows of long runs.
    void labelMapsReadBackInOtherReaders()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        cv::Mat labels(120, 256, CV_8UC1);
        for (int y = 0; y < labels.rows; ++y)
            for (int x = 0; x < labels.cols; ++x)
                labels.at<std::uint8_t>(y, x) = static_cast<std::uint8_t>(y < 60 ? x : (x / 64) * 60);
        data::ClassSchema schema;
        for (int id = 0; id < 255; ++id)
            schema.add({id, "class " + std::to_string(id), {std::uint8_t(id), 0, 0}, ""});
        data::writeLabelMap(file, labels, schema);
        const cv::Mat shown = cv::imread(file.string(), cv::IMREAD_COLOR);  // OpenCV expands the palette
        QCOMPARE(shown.size(), labels.size());
        cv::Mat red;
        cv::extractChannel(shown, red, 2);  // class id k is coloured (k, 0, 0); unlabelled black
        cv::Mat expected = labels.clone();
        expected.setTo(0, labels == data::kUnlabelled);
        QVERIFY(test::sameMat(red, expected));
    }

    void paletteShowsClassColoursInAnyViewer()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        data::writeLabelMap(file, test::patternLabels(8, 8, 3), test::threeClasses());
        const cv::Mat shown = cv::imread(file.string(), cv::IMREAD_COLOR);  // a viewer expands the palette
        const cv::Vec3b car = shown.at<cv::Vec3b>(0, 1);                    // (x + 2y) % 3 == 1: car
        QCOMPARE(car, cv::Vec3b(128, 0, 64));                               // BGR of #400080
    }

    void greyAnnotationWithVoidValue()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "annot.png");
        cv::Mat annot(4, 4, CV_8UC1, cv::Scalar(2));
        annot.at<std::uint8_t>(1, 1) = 11;  // CamVid's void
        cv::imwrite(file.string(), annot);
        const cv::Mat labels = data::readLabelMap(file, data::ClassSchema::camVid(), {4, 4}, 11);
        QCOMPARE(int(labels.at<std::uint8_t>(1, 1)), 255);
        QCOMPARE(int(labels.at<std::uint8_t>(0, 0)), 2);
    }

    void valueOutsideSchemaIsNamed()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "annot.png");
        cv::Mat annot(4, 4, CV_8UC1, cv::Scalar(0));
        annot.at<std::uint8_t>(2, 3) = 7;
        cv::imwrite(file.string(), annot);
        test::expectDataError([&] { data::readLabelMap(file, test::threeClasses()); }, file, QStringLiteral("pixel (3, 2) has value 7"));
    }

    void sizeMismatchIsNamed()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        data::writeLabelMap(file, test::patternLabels(8, 8, 3), test::threeClasses());
        test::expectDataError([&] { data::readLabelMap(file, test::threeClasses(), {9, 8}); }, file, QStringLiteral("but its image is 9x8"));
    }

    void corruptAndColourFilesAreRefused_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not a png") << 0 << "not a PNG";
        QTest::newRow("truncated") << 1 << "corrupt PNG";
        QTest::newRow("rgb") << 2 << "colour image";
        QTest::newRow("missing") << 3 << "not found";
    }

    void corruptAndColourFilesAreRefused()
    {
        QFETCH(int, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        if (kind == 0)
            test::writeBytes(file, "GIF89a not a png at all");
        if (kind == 1) {
            data::writeLabelMap(file, test::patternLabels(64, 64, 3), test::threeClasses());
            const std::string bytes = test::readBytes(file);
            test::writeBytes(file, bytes.substr(0, bytes.size() / 2));
        }
        if (kind == 2)
            cv::imwrite(file.string(), cv::Mat(4, 4, CV_8UC3, cv::Scalar(1, 2, 3)));
        test::expectDataError([&] { data::readLabelMap(file, test::threeClasses()); }, file, expected);
    }

    void colourMaskMapsColoursAndRefusesUnknownOnes()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "mask.png");
        const cv::Mat labels = test::patternLabels(6, 7, 3);
        const data::ClassSchema schema = test::threeClasses();
        data::writeImageRgb(file, data::colorize(labels, schema));
        auto table = data::colorTable(schema);
        table[data::packRgb({0, 0, 0})] = data::kUnlabelled;
        QVERIFY(test::sameMat(data::readColorMask(file, table), labels));

        cv::Mat rgb = data::colorize(labels, schema);
        rgb.at<cv::Vec3b>(5, 4) = cv::Vec3b(1, 2, 3);
        data::writeImageRgb(file, rgb);
        test::expectDataError([&] { data::readColorMask(file, table); }, file, QStringLiteral("colour #010203 at pixel (4, 5)"));
    }

    void failedWriteKeepsTheOldLabelMap()
    {
        QTemporaryDir dir;
        const fs::path file = test::path(dir, "labels.png");
        data::writeLabelMap(file, test::patternLabels(8, 8, 3), test::threeClasses());
        const std::string before = test::readBytes(file);
        QVERIFY_THROWS_EXCEPTION(data::DataError, data::writeLabelMap(file, cv::Mat(), test::threeClasses()));
        QVERIFY_THROWS_EXCEPTION(data::DataError,
                                 data::writeLabelMap(test::path(dir, "missing-folder/labels.png"), test::patternLabels(8, 8, 3), test::threeClasses()));
        QCOMPARE(test::readBytes(file), before);
    }
};

QTEST_GUILESS_MAIN(TestLabelMapIO)
#include "test_LabelMapIO.moc"
