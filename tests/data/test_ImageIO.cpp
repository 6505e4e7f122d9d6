#include "TestFiles.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageHeader.h"
#include "data/labels/ImageIO.h"

#include <QtTest>
#include <opencv2/imgcodecs.hpp>

using namespace segstudio;
namespace fs = std::filesystem;

class TestImageIO : public QObject {
    Q_OBJECT

private slots:
    void readsRgbInRgbOrder_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("png") << "red.png";
        QTest::newRow("bmp") << "red.bmp";
    }

    void readsRgbInRgbOrder()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const fs::path file = test::path(dir, name.toUtf8().constData());
        data::writeImageRgb(file, cv::Mat(3, 5, CV_8UC3, cv::Scalar(250, 10, 20)));
        const cv::Mat image = data::readImageRgb(file);
        QCOMPARE(image.size(), cv::Size(5, 3));
        QCOMPARE(image.at<cv::Vec3b>(1, 1), cv::Vec3b(250, 10, 20));
    }

    void badImagesAreNamed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << "gone.png" << 0 << "not found";
        QTest::newRow("empty") << "empty.png" << 1 << "empty";
        QTest::newRow("corrupt png") << "corrupt.png" << 2 << "not a readable image";
        QTest::newRow("truncated jpeg") << "cut.jpg" << 3 << "not a readable image";
        QTest::newRow("folder") << "folder.png" << 4 << "is a folder";
    }

    void badImagesAreNamed()
    {
        QFETCH(QString, name);
        QFETCH(int, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const fs::path file = test::path(dir, name.toUtf8().constData());
        if (kind == 1)
            test::writeBytes(file, "");
        if (kind == 2)
            test::writeBytes(file, std::string("\x89PNG\r\n\x1a\n", 8) + "garbage that is not a PNG stream");
        if (kind == 3) {
            data::writeImageRgb(file, cv::Mat(64, 64, CV_8UC3, cv::Scalar(1, 2, 3)));
            test::writeBytes(file, test::readBytes(file).substr(0, 20));
        }
        if (kind == 4)
            fs::create_directories(file);
        try {
            data::readImageRgb(file);
            QFAIL("a bad image was accepted");
        } catch (const data::DataError& error) {
            QVERIFY2(QString::fromStdString(error.what()).contains(expected), error.what());
            QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(file.string()));
        }
    }
    // The size comes from the header: equal to the decoded size for PNG (grey and RGB) and JPEG
    // (progressive too), and a file cut after its header still answers, which is how an import
    // knows it never decoded the image.
    void readsTheSizeFromTheHeader_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::addColumn<int>("flag");
        QTest::newRow("png") << ".png" << 0;
        QTest::newRow("jpeg") << ".jpg" << 0;
        QTest::newRow("progressive jpeg") << ".jpg" << int(cv::IMWRITE_JPEG_PROGRESSIVE);
        QTest::newRow("bmp (decoded)") << ".bmp" << 0;
    }

    void readsTheSizeFromTheHeader()
    {
        QFETCH(QString, extension);
        QFETCH(int, flag);
        QTemporaryDir dir;
        const auto file = test::path(dir, "image").replace_extension(extension.toStdString());
        cv::Mat image(37, 53, CV_8UC3);
        cv::randu(image, 0, 255);  // noise: a file much longer than its header
        std::vector<int> parameters;
        if (flag)
            parameters = {flag, 1};
        QVERIFY(cv::imwrite(file.string(), image, parameters));
        QCOMPARE(data::readImageSize(file), cv::Size(53, 37));
        if (extension != ".bmp") {
            const std::string bytes = test::readBytes(file);
            QVERIFY(bytes.size() > 1000);
            test::writeBytes(file, bytes.substr(0, 300));
            QCOMPARE(data::readImageSize(file), cv::Size(53, 37));
        }
    }

    // Issue 47.4: a phone's JPEG with an EXIF orientation imported (sized by its header), then
    // could not be packed: the decode rotated it. Every reader keeps the stored pixels.
    void exifOrientationIsIgnoredEverywhere_data()
    {
        QTest::addColumn<int>("orientation");
        for (const int orientation : {1, 3, 6, 8})
            QTest::newRow(qPrintable(QStringLiteral("orientation %1").arg(orientation))) << orientation;
    }

    void exifOrientationIsIgnoredEverywhere()
    {
        QFETCH(int, orientation);
        QTemporaryDir dir;
        // 120x80 stored: the left half red, the right half blue.
        cv::Mat bgr(80, 120, CV_8UC3, cv::Scalar(255, 0, 0));
        bgr(cv::Rect(0, 0, 60, 80)).setTo(cv::Scalar(0, 0, 255));
        std::vector<unsigned char> jpeg;
        QVERIFY(cv::imencode(".jpg", bgr, jpeg, {cv::IMWRITE_JPEG_QUALITY, 95}));
        // An APP1 Exif segment after SOI: big-endian TIFF, one IFD entry, Orientation (0x0112) = n.
        const unsigned char o = static_cast<unsigned char>(orientation);
        const std::vector<unsigned char> app1{0xFF, 0xE1, 0x00, 34, 'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0x00, 0x2A, 0, 0, 0, 8,
                                              0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0x00, o, 0, 0, 0, 0, 0, 0};
        jpeg.insert(jpeg.begin() + 2, app1.begin(), app1.end());
        const fs::path file = test::path(dir, "photo.jpg");
        test::writeBytes(file, std::string(jpeg.begin(), jpeg.end()));
        // The tag is really there: OpenCV's own default decode applies it.
        const cv::Mat rotated = cv::imread(file.string(), cv::IMREAD_COLOR);
        QCOMPARE(rotated.cols, orientation >= 5 ? 80 : 120);

        QCOMPARE(data::readImageSize(file), cv::Size(120, 80));
        const cv::Mat rgb = data::readImageRgb(file);
        QCOMPARE(rgb.size(), cv::Size(120, 80));
        QVERIFY(rgb.at<cv::Vec3b>(40, 10)[0] > 200 && rgb.at<cv::Vec3b>(40, 10)[2] < 50);   // red stays left
        QVERIFY(rgb.at<cv::Vec3b>(40, 110)[2] > 200 && rgb.at<cv::Vec3b>(40, 110)[0] < 50);  // blue stays right
    }

    void aMissingOrForeignFileHasNoSize()
    {
        QTemporaryDir dir;
        test::expectDataError([&] { data::readImageSize(test::path(dir, "none.png")); }, test::path(dir, "none.png"), "not found");
        test::writeBytes(test::path(dir, "text.png"), "not an image at all");
        test::expectDataError([&] { data::readImageSize(test::path(dir, "text.png")); }, test::path(dir, "text.png"), "image");
    }
};

QTEST_GUILESS_MAIN(TestImageIO)
#include "test_ImageIO.moc"
