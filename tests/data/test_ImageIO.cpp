#include "TestFiles.h"
#include "data/DataError.h"
#include "data/ImageHeader.h"
#include "data/ImageIO.h"

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
