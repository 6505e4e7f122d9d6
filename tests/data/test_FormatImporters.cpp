// The importers of other tools' formats (COCO, labelme, Cityscapes, Mapillary, CVAT) on small files
// the tests write: what each pixel becomes, which classes the schema gets, and clear errors with
// nothing half-written for malformed input.
#include "TestFiles.h"
#include "data/formats/CocoImporter.h"
#include "data/formats/CocoRle.h"
#include "data/labels/LabelMapIO.h"
#include "data/formats/LabelmeImporter.h"
#include "data/formats/RasterFormatImporter.h"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

using namespace segstudio;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void writeImage(const fs::path& file, cv::Size size)
{
    fs::create_directories(file.parent_path());
    cv::Mat image(size, CV_8UC3, cv::Scalar(30, 60, 90));
    QVERIFY(cv::imwrite(file.string(), image));
}

void writeJson(const fs::path& file, const json& content) { test::writeBytes(file, content.dump()); }

cv::Mat labelsOf(const data::Project& project, std::size_t index)
{
    return data::readLabelMap(project.labelMapPath(index), project.schema());
}

std::uint8_t at(const cv::Mat& labels, int x, int y) { return labels.at<std::uint8_t>(y, x); }

// A 40x30 image with a large "road" square and a small "car" square inside it, listed first so
// only the area order can put the car on top; a second image with no annotation.
json twoImageCoco()
{
    return {{"images", {{{"id", 7}, {"file_name", "a.png"}, {"width", 40}, {"height", 30}},
                        {{"id", 9}, {"file_name", "b.png"}, {"width", 40}, {"height", 30}}}},
            {"categories", {{{"id", 3}, {"name", "car"}}, {{"id", 1}, {"name", "road"}}}},
            {"annotations",
             {{{"id", 1}, {"image_id", 7}, {"category_id", 3}, {"area", 16.0}, {"iscrowd", 0},
               {"segmentation", {{10, 10, 14, 10, 14, 14, 10, 14}}}},
              {{"id", 2}, {"image_id", 7}, {"category_id", 1}, {"area", 400.0}, {"iscrowd", 0},
               {"segmentation", {{0, 0, 20, 0, 20, 20, 0, 20}}}}}}};
}

}  // namespace

class TestFormatImporters : public QObject {
    Q_OBJECT

private slots:
    void rleRoundTripsAndMatchesPycocotools()
    {
        cv::Mat mask(5, 4, CV_8UC1, cv::Scalar(0));
        mask(cv::Rect(1, 1, 2, 3)).setTo(1);
        // Column-major runs: column 0 is 5 zeros, column 1 is 1 zero + 3 ones + 1 zero, ...
        QCOMPARE(data::CocoRle::runsOf(mask), (std::vector<std::uint32_t>{6, 3, 2, 3, 6}));
        // Compressed as pycocotools does: runs 0..2 as they are, then each minus the run two
        // before (3 - 3 = 0, 6 - 2 = 4), one character each (value + 48) while they fit 5 bits.
        QCOMPARE(data::CocoRle::encode(mask), std::string("63204"));
        cv::Mat big(300, 200, CV_8UC1, cv::Scalar(0));
        cv::circle(big, {90, 140}, 70, cv::Scalar(1), cv::FILLED);
        const auto runs = data::CocoRle::decompress(data::CocoRle::encode(big), big.total());
        cv::Mat back(big.size(), CV_8UC1, cv::Scalar(0));
        data::CocoRle::paint(runs, back, 1);
        QVERIFY(test::sameMat(back, big));
    }

    // Known answers from pycocotools' rleToString/rleFrString (maskApi.c) followed by hand in
    // Python, not from this code: runs above 2^20 take several 5-bit chunks, and counts after the
    // third are differences from the count two before, here negative (-3 and -2999996).
    void rleLongCountsAndNegativeDifferencesMatchPycocotools()
    {
        const std::vector<std::uint32_t> runs{1200000, 5, 3000000, 2, 4, 2500000};
        QCOMPARE(data::CocoRle::decompress("PlcT15Pfak2MTZ^TMn\\Y\\2", 6700011), runs);
        // The largest 32-bit count takes the most chunks a count may have (7).
        QCOMPARE(data::CocoRle::decompress("oooooo3", 4294967295u), std::vector<std::uint32_t>{4294967295u});
    }

    // A 1536x1024 mask (1.5 M pixels): a 3x4 box, one 10-pixel column piece, and the last 124
    // columns, so runs of 1.2 M and 153490 zeros give differences of +1221210 and -1069252.
    void rleRoundTripsAMaskWithLongRuns()
    {
        cv::Mat mask(1536, 1024, CV_8UC1, cv::Scalar(0));
        mask(cv::Rect(2, 10, 3, 4)).setTo(1);
        mask(cv::Rect(800, 100, 1, 10)).setTo(1);
        mask(cv::Rect(900, 0, 124, 1536)).setTo(1);
        const std::vector<std::uint32_t> runs{3082, 4, 1532, 4, 1532, 4, 1222742, 10, 153490, 190464};
        QCOMPARE(data::CocoRle::runsOf(mask), runs);
        const std::string counts = "ZP34l_1000jbXU16li[oNfoi5";
        QCOMPARE(data::CocoRle::encode(mask), counts);
        QCOMPARE(data::CocoRle::decompress(counts, mask.total()), runs);
        cv::Mat back(mask.size(), CV_8UC1, cv::Scalar(0));
        data::CocoRle::paint(data::CocoRle::decompress(counts, mask.total()), back, 1);
        QVERIFY(test::sameMat(back, mask));
    }

    void rleMalformedCountsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("counts");
        QTest::addColumn<qulonglong>("pixels");
        QTest::addColumn<QString>("expected");
        // Each chunk with the continuation bit ('P' = 48 + 0x20): without a limit the decoder
        // shifted by 5 x 19 = 95 bits.
        QTest::newRow("20 chunks") << QByteArray("PPPPPPPPPPPPPPPPPPPP0") << 1000ull
                                   << "RLE count 0 has more than 7 5-bit chunks";
        QTest::newRow("8 chunks") << QByteArray("0PPPPPPP0") << 1000ull << "RLE count 1 has more than 7 5-bit chunks";
        QTest::newRow("past the mask")
            << QByteArray("PlcT15Pfak2MTZ^TMn\\Y\\2") << 6700010ull
            << "RLE count 5 decodes to a run of 2500000 pixels after 4200011: past the mask's 6700010 pixels";
        // 0, 2^32 - 1, 0, then (2^32 - 1) + (2^32 - 1).
        QTest::newRow("32-bit overflow")
            << QByteArray("0oooooo30oooooo3") << ~0ull
            << "RLE count 3 decodes to a run of 8589934590 pixels, more than a 32-bit count holds";
        QTest::newRow("negative run") << QByteArray("050J") << 1000ull << "RLE count 3 decodes to a negative run (-1)";
        QTest::newRow("ends inside a count") << QByteArray("6P") << 1000ull
                                             << "the counts string ends inside RLE count 1";
        QTest::newRow("outside '0'..'o'") << QByteArray("6\x7f") << 1000ull << "RLE count 1 holds a character outside";
    }

    void rleMalformedCountsAreRefused()
    {
        QFETCH(QByteArray, counts);
        QFETCH(qulonglong, pixels);
        QFETCH(QString, expected);
        // No file: the importer names it (cocoErrorsNameTheRecordAndWriteNothing).
        test::expectDataError([&] { data::CocoRle::decompress(counts.toStdString(), pixels); }, {}, expected);
    }

    void cocoPolygonsSmallerOnTopAndEmptyImagesUnlabelled()
    {
        QTemporaryDir dir;
        writeImage(test::path(dir, "img/a.png"), {40, 30});
        writeImage(test::path(dir, "img/b.png"), {40, 30});
        writeJson(test::path(dir, "instances.json"), twoImageCoco());
        const auto project = data::CocoImporter::import({test::path(dir, "instances.json"), test::path(dir, "img"), {}, {}, data::Split::Val},
                                                        test::path(dir, "coco.segstudio"));
        QCOMPARE(project.schema().size(), std::size_t(2));
        QCOMPARE(project.schema().find(0)->name, std::string("road"));  // category 1 first: ids by order
        QCOMPARE(project.schema().find(1)->name, std::string("car"));
        QVERIFY(project.entry(0).status == data::LabelStatus::Labelled);
        QVERIFY(project.entry(0).split == data::Split::Val);
        QVERIFY(project.entry(1).status == data::LabelStatus::Unlabelled);
        QVERIFY(!fs::exists(project.labelMapPath(1)));
        const cv::Mat labels = labelsOf(project, 0);
        QCOMPARE(int(at(labels, 12, 12)), 1);   // the car over the road
        QCOMPARE(int(at(labels, 5, 5)), 0);     // road
        QCOMPARE(int(at(labels, 30, 25)), 255); // no annotation: unlabelled
        // The road square [0,20]^2 covers pixels 0..19 exactly, as COCO counts its area.
        QCOMPARE(cv::countNonZero(labels == 0) + cv::countNonZero(labels == 1), 400);
    }

    void cocoRleStringsListsAndABackgroundClass()
    {
        QTemporaryDir dir;
        writeImage(test::path(dir, "a.png"), {40, 30});
        cv::Mat crowd(30, 40, CV_8UC1, cv::Scalar(0));
        crowd(cv::Rect(25, 5, 10, 20)).setTo(1);
        cv::Mat other(30, 40, CV_8UC1, cv::Scalar(0));
        other(cv::Rect(0, 0, 5, 5)).setTo(1);
        const auto runs = data::CocoRle::runsOf(other);
        json coco = {{"images", {{{"id", 1}, {"file_name", "a.png"}, {"width", 40}, {"height", 30}}}},
                     {"categories", {{{"id", 5}, {"name", "person"}}, {{"id", 6}, {"name", "dog"}}}},
                     {"annotations",
                      {{{"image_id", 1}, {"category_id", 5}, {"iscrowd", 1},
                        {"segmentation", {{"size", {30, 40}}, {"counts", data::CocoRle::encode(crowd)}}}},
                       {{"image_id", 1}, {"category_id", 6}, {"iscrowd", 0},
                        {"segmentation", {{"size", {30, 40}}, {"counts", runs}}}}}}};
        writeJson(test::path(dir, "rle.json"), coco);
        const auto project = data::CocoImporter::import({test::path(dir, "rle.json"), dir.path().toStdString(), {}, "ground", {}},
                                                        test::path(dir, "rle.segstudio"));
        QCOMPARE(project.schema().find(0)->name, std::string("ground"));
        const cv::Mat labels = labelsOf(project, 0);
        QCOMPARE(cv::countNonZero(labels == 1), 200);  // person (crowd RLE string)
        QCOMPARE(cv::countNonZero(labels == 2), 25);   // dog (RLE run list)
        QCOMPARE(cv::countNonZero(labels == 0), 1200 - 225);
    }

    void cocoPanopticSegments()
    {
        QTemporaryDir dir;
        writeImage(test::path(dir, "img/a.jpg"), {16, 8});
        cv::Mat segments(8, 16, CV_8UC3, cv::Scalar(0, 0, 0));  // BGR: id = R + 256 G + 65536 B
        segments(cv::Rect(0, 0, 8, 8)).setTo(cv::Scalar(0, 1, 44));  // id 300
        segments(cv::Rect(8, 0, 4, 8)).setTo(cv::Scalar(0, 0, 7));   // id 7
        fs::create_directories(test::path(dir, "panoptic_val"));
        QVERIFY(cv::imwrite(test::path(dir, "panoptic_val/a.png").string(), segments));
        json panoptic = {{"images", {{{"id", 1}, {"file_name", "a.jpg"}, {"width", 16}, {"height", 8}}}},
                         {"categories", {{{"id", 1}, {"name", "person"}, {"color", {220, 20, 60}}, {"isthing", 1}},
                                         {{"id", 184}, {"name", "grass"}, {"color", {0, 192, 0}}, {"isthing", 0}}}},
                         {"annotations", {{{"image_id", 1}, {"file_name", "a.png"},
                                           {"segments_info", {{{"id", 300}, {"category_id", 184}}, {{"id", 7}, {"category_id", 1}}}}}}}};
        writeJson(test::path(dir, "panoptic_val.json"), panoptic);
        const auto project = data::CocoImporter::import({test::path(dir, "panoptic_val.json"), test::path(dir, "img"), {}, {}, {}},
                                                        test::path(dir, "p.segstudio"));
        QVERIFY(project.schema().find(1)->color == (data::Rgb{0, 192, 0}));
        const cv::Mat labels = labelsOf(project, 0);
        QCOMPARE(cv::countNonZero(labels == 1), 64);
        QCOMPARE(cv::countNonZero(labels == 0), 32);
        QCOMPARE(cv::countNonZero(labels == 255), 32);
    }

    void cocoErrorsNameTheRecordAndWriteNothing_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("expected");
        QTest::newRow("two-point polygon") << "twoPoints" << "annotation 0: polygon with 2 points";
        QTest::newRow("out of bounds") << "outOfBounds" << "annotation 1: polygon point (90.000000, 0.000000) is outside the 40x30 image";
        QTest::newRow("unknown category") << "unknownCategory" << "annotation 0: unknown category id 99";
        QTest::newRow("unknown image") << "unknownImage" << "annotation 1: unknown image id 12";
        QTest::newRow("missing image") << "missingImage" << "image 1: image not found";
        QTest::newRow("truncated") << "truncated" << "not valid JSON";
        QTest::newRow("wrong type") << "wrongType" << "annotation 0: ";
        QTest::newRow("image size") << "imageSize" << "image 0: ";
        QTest::newRow("malformed RLE") << "malformedRle"
                                       << "annotation 0 (id 1): RLE count 0 has more than 7 5-bit chunks";
        QTest::newRow("RLE past the image")
            << "rlePastImage"
            << "annotation 0 (id 1): RLE count 0 decodes to a run of 4294967295 pixels after 0: past the mask's 1200 pixels";
    }

    void cocoErrorsNameTheRecordAndWriteNothing()
    {
        QFETCH(QString, change);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        writeImage(test::path(dir, "a.png"), {40, 30});
        writeImage(test::path(dir, "b.png"), {40, 30});
        json coco = twoImageCoco();
        std::string text;
        if (change == "twoPoints")
            coco["annotations"][0]["segmentation"] = {{1, 1, 5, 5}};
        else if (change == "outOfBounds")
            coco["annotations"][1]["segmentation"] = {{0, 0, 90, 0, 20, 20}};
        else if (change == "unknownCategory")
            coco["annotations"][0]["category_id"] = 99;
        else if (change == "unknownImage")
            coco["annotations"][1]["image_id"] = 12;
        else if (change == "missingImage")
            coco["images"][1]["file_name"] = "gone.png";
        else if (change == "wrongType")
            coco["annotations"][0]["area"] = "big";
        else if (change == "imageSize")
            coco["images"][0]["width"] = 41;
        else if (change == "malformedRle")
            coco["annotations"][0]["segmentation"] = {{"size", {30, 40}}, {"counts", "PPPPPPPPPPPPPPPPPPPP0"}};
        else if (change == "rlePastImage")
            coco["annotations"][0]["segmentation"] = {{"size", {30, 40}}, {"counts", "oooooo3"}};
        text = coco.dump();
        if (change == "truncated")
            text = text.substr(0, text.size() / 2);
        test::writeBytes(test::path(dir, "bad.json"), text);
        const fs::path project = test::path(dir, "bad.segstudio");
        test::expectDataError([&] { data::CocoImporter::import({test::path(dir, "bad.json"), dir.path().toStdString(), {}, {}, {}}, project); },
                              test::path(dir, "bad.json"), expected);
        QVERIFY(!fs::exists(project));
        QVERIFY(!fs::exists(test::path(dir, "bad.labels")));
    }

    void labelmeShapesInFileOrderWithIgnoreAndBackground()
    {
        QTemporaryDir dir;
        writeImage(test::path(dir, "set/a.png"), {40, 30});
        json a = {{"imagePath", "a.png"}, {"imageData", nullptr}, {"imageHeight", 30}, {"imageWidth", 40},
                  {"shapes",
                   {{{"label", "road"}, {"shape_type", "rectangle"}, {"points", {{0, 0}, {19, 19}}}},
                    {{"label", "car"}, {"shape_type", "polygon"}, {"points", {{5, 5}, {10, 5}, {10, 10}, {5, 10}}}},
                    {{"label", "__ignore__"}, {"shape_type", "circle"}, {"points", {{30, 20}, {33, 20}}}},
                    {{"label", "car"}, {"shape_type", "line"}, {"points", {{0, 29}, {39, 29}}}},
                    {{"label", "car"}, {"shape_type", "mask"}, {"points", {{0, 0}, {3, 3}}}, {"mask", "iVBORw0KGgo="}}}}};
        writeJson(test::path(dir, "set/a.json"), a);
        test::writeBytes(test::path(dir, "labels.txt"), "__ignore__\n_background_\ncar\nroad\n");
        data::LabelmeImportSummary summary;
        const auto project = data::LabelmeImporter::import({test::path(dir, "set"), test::path(dir, "labels.txt"), {}},
                                                           test::path(dir, "l.segstudio"), {}, &summary);
        QCOMPARE(summary.ignoredShapes, std::size_t(1));  // the mask; the line is drawn
        QCOMPARE(project.schema().size(), std::size_t(3));
        QCOMPARE(project.schema().find(0)->name, std::string("_background_"));
        const cv::Mat labels = labelsOf(project, 0);
        QCOMPARE(int(at(labels, 7, 7)), 1);    // car drawn after the road rectangle
        QCOMPARE(int(at(labels, 15, 15)), 2);  // road
        QCOMPARE(int(at(labels, 19, 19)), 2);  // the rectangle includes its corner pixel
        QCOMPARE(int(at(labels, 30, 20)), 255);  // __ignore__ circle
        QCOMPARE(int(at(labels, 25, 5)), 0);   // background fills the rest
        // Counts from labelme's shape_to_mask run on this file with Pillow 9.4 (python3-pil): the
        // polygon 5..10 inclusive (36), the line 10 px wide as PIL draws it, rows 25..29 (200).
        QCOMPARE(cv::countNonZero(labels == 1), 36 + 200);
        QCOMPARE(int(at(labels, 5, 24)), 0);
        QCOMPARE(int(at(labels, 5, 25)), 1);
        QCOMPARE(cv::countNonZero(labels == 255), 37);  // the __ignore__ circle of radius 3
    }

    void labelmeEmbeddedImagesAndClassesInOrderOfAppearance()
    {
        QTemporaryDir dir;
        const std::string encoded = test::pngAsBase64(cv::Size(12, 8));
        json b = {{"imagePath", "../elsewhere/b.png"}, {"imageData", encoded}, {"imageHeight", 8}, {"imageWidth", 12},
                  {"shapes", {{{"label", "tree"}, {"points", {{0, 0}, {11, 0}, {11, 7}}}},
                              {{"label", "sky"}, {"shape_type", "polygon"}, {"points", {{0, 7}, {3, 7}, {0, 4}}}}}}};
        writeJson(test::path(dir, "set/b.json"), b);
        const auto project = data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "e.segstudio"));
        QCOMPARE(project.schema().find(0)->name, std::string("tree"));
        QCOMPARE(project.schema().find(1)->name, std::string("sky"));
        QVERIFY(fs::exists(test::path(dir, "e.images/b.png")));
        QCOMPARE(project.imagePath(0), fs::path(test::path(dir, "e.images/b.png")));
        QCOMPARE(int(at(labelsOf(project, 0), 0, 7)), 1);
        QCOMPARE(int(at(labelsOf(project, 0), 10, 1)), 0);
        QCOMPARE(int(at(labelsOf(project, 0), 5, 6)), 255);
    }

    void labelmeErrorsWriteNothing()
    {
        QTemporaryDir dir;
        writeImage(test::path(dir, "set/a.png"), {10, 10});
        json good = {{"imagePath", "a.png"}, {"imageHeight", 10}, {"imageWidth", 10},
                     {"shapes", {{{"label", "car"}, {"points", {{0, 0}, {5, 0}, {5, 5}}}}}}};
        json unknown = good;
        unknown["shapes"][0]["label"] = "boat";
        writeJson(test::path(dir, "set/a.json"), unknown);
        test::writeBytes(test::path(dir, "labels.txt"), "car\n");
        test::expectDataError([&] { data::LabelmeImporter::import({test::path(dir, "set"), test::path(dir, "labels.txt"), {}}, test::path(dir, "x.segstudio")); },
                              test::path(dir, "set/a.json"), "shape label 'boat' is not in");
        json twoPoints = good;
        twoPoints["shapes"][0]["points"] = {{0, 0}, {5, 5}};
        writeJson(test::path(dir, "set/a.json"), twoPoints);
        test::expectDataError([&] { data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "x.segstudio")); },
                              test::path(dir, "set/a.json"), "shape 0 ('car'): polygon with 2 points");
        json noImage = good;
        noImage["imagePath"] = "gone.png";
        writeJson(test::path(dir, "set/a.json"), noImage);
        test::expectDataError([&] { data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "x.segstudio")); },
                              test::path(dir, "set/a.json"), "image not found");
        test::writeBytes(test::path(dir, "set/a.json"), good.dump().substr(0, 30));
        test::expectDataError([&] { data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "x.segstudio")); },
                              test::path(dir, "set/a.json"), "not valid JSON");
        QVERIFY(!fs::exists(test::path(dir, "x.segstudio")));
        QVERIFY(!fs::exists(test::path(dir, "x.labels")));
    }

    // Issue 46.11: each file is checked against its image before any label map is allocated, and
    // an error names the file and the shape. The old importer accepted every one of these (or,
    // for 1e999, let nlohmann's out_of_range escape), allocating the label map at the file's size.
    void labelmeShapesAreCheckedAgainstTheImage_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("imageWidth") << "imageWidth"
                                    << QStringList{"a.json: imageWidth x imageHeight say 41x30, but ", "a.png is 40x30"};
        QTest::newRow("a huge imageHeight/imageWidth")
            << "hugeSize" << QStringList{"imageWidth x imageHeight say 1e+09x1e+09, but ", "a.png is 40x30"};
        QTest::newRow("swapped (EXIF)") << "swapped" << QStringList{"say 30x40, but ", "a.png is 40x30", "EXIF orientation"};
        QTest::newRow("embedded image") << "embedded"
                                        << QStringList{"say 13x8, but ", "x.images/a.png is 12x8"};
        QTest::newRow("far point") << "farPoint"
                                   << QStringList{"a.json: shape 1 ('car'): point (5000, 5000) is outside the 40x30 image"};
        QTest::newRow("rectangle corner 1.5 px out")
            << "rectangleCorner" << QStringList{"shape 1 ('car'): point (-1.5, 3) is outside the 40x30 image"};
        QTest::newRow("point shape") << "pointShape"
                                     << QStringList{"shape 1 ('car'): point (41.5, 10) is outside the 40x30 image"};
        QTest::newRow("circle past the diagonal")
            << "circle" << QStringList{"shape 1 ('car'): circle of radius 999980 reaches past the 40x30 image's diagonal (50)"};
        QTest::newRow("NaN") << "NaN" << QStringList{"a.json: shape 1 ('car'): not valid JSON"};
        QTest::newRow("Infinity") << "Infinity" << QStringList{"a.json: shape 1 ('car'): not valid JSON"};
        QTest::newRow("1e999") << "1e999" << QStringList{"a.json: shape 1 ('car'): not valid JSON"};
    }

    void labelmeShapesAreCheckedAgainstTheImage()
    {
        QFETCH(QString, change);
        QFETCH(QStringList, expected);
        QTemporaryDir dir;
        writeImage(test::path(dir, "set/a.png"), {40, 30});
        json file = {{"imagePath", "a.png"}, {"imageHeight", 30}, {"imageWidth", 40},
                     {"shapes", {{{"label", "road"}, {"shape_type", "rectangle"}, {"points", {{0, 0}, {19, 19}}}},
                                 {{"label", "car"}, {"shape_type", "polygon"}, {"points", {{5, 5}, {10, 5}, {12.25, 10}}}}}}};
        json& car = file["shapes"][1];
        if (change == "imageWidth") {
            file["imageWidth"] = 41;
        } else if (change == "hugeSize") {
            file["imageWidth"] = 1000000000;
            file["imageHeight"] = 1000000000;
        } else if (change == "swapped") {
            file["imageWidth"] = 30;
            file["imageHeight"] = 40;
        } else if (change == "embedded") {
            fs::remove(test::path(dir, "set/a.png"));
            file["imagePath"] = "../elsewhere/a.png";
            file["imageData"] = test::pngAsBase64({12, 8});
            file["imageWidth"] = 13;
            file["imageHeight"] = 8;
            file["shapes"] = {{{"label", "car"}, {"shape_type", "point"}, {"points", {{3, 3}}}}};
        } else if (change == "farPoint") {
            car["points"][2] = {5000, 5000};
        } else if (change == "rectangleCorner") {
            car = {{"label", "car"}, {"shape_type", "rectangle"}, {"points", {{-1.5, 3}, {10, 10}}}};
        } else if (change == "pointShape") {
            car = {{"label", "car"}, {"shape_type", "point"}, {"points", {{41.5, 10}}}};
        } else if (change == "circle") {
            car = {{"label", "car"}, {"shape_type", "circle"}, {"points", {{20, 15}, {1000000, 15}}}};
        }
        std::string text = file.dump();
        if (change == "NaN" || change == "Infinity" || change == "1e999")  // as Python's json writes them, and an overflow
            text.replace(text.find("12.25"), 5, change.toStdString());
        test::writeBytes(test::path(dir, "set/a.json"), text);
        const fs::path project = test::path(dir, "x.segstudio");
        try {
            data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, project);
            QFAIL("the file was accepted");
        } catch (const data::DataError& error) {
            QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(test::path(dir, "set/a.json").string()));
            for (const QString& part : expected)
                QVERIFY2(QString::fromStdString(error.what()).contains(part), error.what());
        }
        QVERIFY(!fs::exists(project));
        QVERIFY(!fs::exists(test::path(dir, "x.labels")));
        QVERIFY(!fs::exists(test::path(dir, "x.images")));  // an embedded image written for the check is removed
    }

    // The limits' other side: points up to a pixel past the border (labelme's own reach the far
    // edge, x = width) and a circle that leaves the image within its diagonal are drawn.
    void labelmeShapesWithinAPixelOfTheImageAreDrawn()
    {
        QTemporaryDir dir;
        writeImage(test::path(dir, "set/a.png"), {40, 30});
        json file = {{"imagePath", "a.png"}, {"imageHeight", 30}, {"imageWidth", 40},
                     {"shapes", {{{"label", "road"}, {"shape_type", "polygon"}, {"points", {{-1, -1}, {41, -0.5}, {40.9, 31}}}},
                                 {{"label", "car"}, {"shape_type", "circle"}, {"points", {{39, 29}, {0, 0}}}}}}};
        writeJson(test::path(dir, "set/a.json"), file);
        const auto project = data::LabelmeImporter::import({test::path(dir, "set"), {}, {}}, test::path(dir, "w.segstudio"));
        const cv::Mat labels = labelsOf(project, 0);
        QCOMPARE(labels.size(), cv::Size(40, 30));
        // As labelme's shape_to_mask draws it with Pillow 9.4: the circle (radius 48.6, drawn
        // last) covers all but the corner pixel its rim passes through, which the polygon took.
        QCOMPARE(int(at(labels, 0, 0)), 0);
        QCOMPARE(cv::countNonZero(labels == 1), 40 * 30 - 1);
    }

    void cityscapesLabelIdsBecomeTrainingClasses()
    {
        QTemporaryDir dir;
        const fs::path root = test::path(dir, "cs");
        writeImage(root / "leftImg8bit/train/aachen/aachen_000000_000019_leftImg8bit.png", {8, 4});
        writeImage(root / "leftImg8bit/test/bonn/bonn_000000_000019_leftImg8bit.png", {8, 4});
        cv::Mat ids(4, 8, CV_8UC1, cv::Scalar(7));  // road
        ids.at<std::uint8_t>(0, 0) = 26;             // car -> train id 13
        ids.at<std::uint8_t>(0, 1) = 0;              // unlabeled
        ids.at<std::uint8_t>(0, 2) = 14;             // guard rail: ignored in training
        fs::create_directories(root / "gtFine/train/aachen");
        fs::create_directories(root / "gtFine/test/bonn");
        QVERIFY(cv::imwrite((root / "gtFine/train/aachen/aachen_000000_000019_gtFine_labelIds.png").string(), ids));
        QVERIFY(cv::imwrite((root / "gtFine/test/bonn/bonn_000000_000019_gtFine_labelIds.png").string(), cv::Mat(4, 8, CV_8UC1, cv::Scalar(0))));
        const auto project = data::RasterFormatImporter::importCityscapes(root, test::path(dir, "cs.segstudio"));
        QCOMPARE(project.schema().size(), std::size_t(19));
        QCOMPARE(project.schema().find(13)->name, std::string("car"));
        QCOMPARE(project.size(), std::size_t(2));
        const auto train = project.indicesOf(data::Split::Train);
        QCOMPARE(train.size(), std::size_t(1));
        const cv::Mat labels = labelsOf(project, train[0]);
        QCOMPARE(int(at(labels, 0, 0)), 13);
        QCOMPARE(int(at(labels, 1, 0)), 255);
        QCOMPARE(int(at(labels, 2, 0)), 255);
        QCOMPARE(int(at(labels, 5, 3)), 0);
        QVERIFY(project.entry(project.indicesOf(data::Split::Test)[0]).status == data::LabelStatus::Unlabelled);
    }

    void mapillaryConfigNamesAndUnlabeled()
    {
        QTemporaryDir dir;
        const fs::path root = test::path(dir, "vistas");
        writeJson(root / "config.json", {{"labels", {{{"name", "construction--flat--road"}, {"readable", "Road"}, {"color", {128, 64, 128}}},
                                                     {{"name", "object--vehicle--car"}, {"readable", "Car"}, {"color", {0, 0, 142}}},
                                                     {{"name", "void--unlabeled"}, {"readable", "Unlabeled"}, {"color", {0, 0, 0}}}}}});
        writeImage(root / "training/images/x.jpg", {6, 4});
        writeImage(root / "validation/images/y.jpg", {6, 4});
        cv::Mat values(4, 6, CV_8UC1, cv::Scalar(0));
        values.row(0).setTo(1);
        values.row(1).setTo(2);
        fs::create_directories(root / "training/labels");
        QVERIFY(cv::imwrite((root / "training/labels/x.png").string(), values));
        const auto project = data::RasterFormatImporter::importMapillary(root, test::path(dir, "m.segstudio"));
        QCOMPARE(project.schema().size(), std::size_t(2));
        QCOMPARE(project.schema().find(1)->name, std::string("Car"));
        const cv::Mat labels = labelsOf(project, project.indicesOf(data::Split::Train)[0]);
        QCOMPARE(cv::countNonZero(labels == 1), 6);
        QCOMPARE(cv::countNonZero(labels == 255), 6);
        QCOMPARE(cv::countNonZero(labels == 0), 12);
        QVERIFY(project.entry(project.indicesOf(data::Split::Val)[0]).status == data::LabelStatus::Unlabelled);
    }

    void cvatMasksWithLabelmapAndSplits()
    {
        QTemporaryDir dir;
        const fs::path root = test::path(dir, "cvat");
        test::writeBytes(root / "labelmap.txt", "# label:color_rgb:parts:actions\nbackground:0,0,0::\ncar:255,0,0::\nroad:0,0,255::\n");
        test::writeBytes(root / "ImageSets/Segmentation/train.txt", "f1\n");
        test::writeBytes(root / "ImageSets/Segmentation/val.txt", "f2\n");
        writeImage(root / "JPEGImages/f1.jpg", {5, 5});
        writeImage(root / "JPEGImages/f2.jpg", {5, 5});
        cv::Mat mask(5, 5, CV_8UC3, cv::Scalar(0, 0, 0));
        mask.row(0).setTo(cv::Scalar(0, 0, 255));  // BGR red = car
        mask.row(4).setTo(cv::Scalar(255, 0, 0));  // BGR blue = road
        fs::create_directories(root / "SegmentationClass");
        QVERIFY(cv::imwrite((root / "SegmentationClass/f1.png").string(), mask));
        const auto project = data::RasterFormatImporter::importCvatMasks(root, test::path(dir, "c.segstudio"));
        QCOMPARE(project.schema().size(), std::size_t(2));
        const auto train = project.indicesOf(data::Split::Train);
        QCOMPARE(train.size(), std::size_t(1));
        const cv::Mat labels = labelsOf(project, train[0]);
        QCOMPARE(cv::countNonZero(labels == 0), 5);
        QCOMPARE(cv::countNonZero(labels == 1), 5);
        QCOMPARE(cv::countNonZero(labels == 255), 15);
        QVERIFY(project.entry(project.indicesOf(data::Split::Val)[0]).status == data::LabelStatus::Unlabelled);
        test::writeBytes(root / "labelmap.txt", "car:255;0;0::\n");
        test::expectDataError([&] { data::RasterFormatImporter::importCvatMasks(root, test::path(dir, "d.segstudio")); },
                              root / "labelmap.txt", "line 1 must be 'name:r,g,b:parts:actions'");
    }
};

QTEST_GUILESS_MAIN(TestFormatImporters)
#include "test_FormatImporters.moc"
