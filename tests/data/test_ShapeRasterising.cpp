// Shapes rasterised as the formats' own tools rasterise them. labelme: random shapes (concave and
// self-crossing polygons, shapes on and just past the border, rectangles in either corner order,
// circles, lines, line strips, points, overlaps) are imported with LabelmeImporter and compared
// with labelme's own shape_to_mask drawing the same files with PIL (tests/data/
// labelme_shape_to_mask.py; python3 with python3-pil and python3-numpy, which
// packaging/install-deps.sh installs). COCO: polygons against known answers of pycocotools'
// rleFrPoly, and random polygons against a line-for-line Python port of it
// (tests/data/coco_rle_fr_poly.py).
#include "TestFiles.h"
#include "data/formats/CocoImporter.h"
#include "data/formats/CocoPolygonRle.h"
#include "data/formats/CocoRle.h"
#include "data/labels/LabelMapIO.h"
#include "data/formats/LabelmeImporter.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cmath>
#include <random>

using namespace segstudio;
namespace fs = std::filesystem;
using nlohmann::json;

Q_DECLARE_METATYPE(cv::Size)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

namespace {

const fs::path kScripts = SEGSTUDIO_TEST_DATA_DIR;

void writeImage(const fs::path& file, cv::Size size)
{
    fs::create_directories(file.parent_path());
    QVERIFY(cv::imwrite(file.string(), cv::Mat(size, CV_8UC3, cv::Scalar(30, 60, 90))));
}

// A python3 that can import `modules`: Debian's first (/usr/bin, where python3-pil installs),
// then the one on PATH. Empty when none can.
QString pythonWith(const QString& modules)
{
    QStringList candidates;
    for (const QString& found :
         {QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")}),
          QStandardPaths::findExecutable(QStringLiteral("python3"))})
        if (!found.isEmpty() && !candidates.contains(found))
            candidates << found;
    for (const QString& python : candidates) {
        QProcess probe;
        probe.start(python, {QStringLiteral("-c"), QStringLiteral("import ") + modules});
        if (probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
            return python;
    }
    return {};
}

// Runs a helper script; its standard output, or the test fails with its standard error.
QByteArray runScript(const QString& python, const QStringList& arguments, const QByteArray& input = {})
{
    QProcess process;
    process.start(python, arguments);
    if (!process.waitForStarted(60000))
        return {};
    process.write(input);
    process.closeWriteChannel();
    const bool finished = process.waitForFinished(300000);
    const QByteArray errors = process.readAllStandardError();
    if (!finished || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        qWarning().noquote() << "script failed:" << arguments.join(QLatin1Char(' ')) << "\n" << errors;
    return finished && process.exitCode() == 0 ? process.readAllStandardOutput() : QByteArray();
}

// Random labelme shapes on an image of `size`, every point within a pixel of it (the importer
// refuses farther ones), a share of them on whole pixels (where Pillow's corner rules act).
class ShapeMaker {
public:
    ShapeMaker(cv::Size size, unsigned seed) : m_size(size), m_random(seed) { }

    json next()
    {
        static const char* const kTypes[] = {"polygon", "polygon", "concave",   "rectangle",
                                             "circle",  "line",    "linestrip", "point"};
        static const char* const kLabels[] = {"car", "road", "tree", "car", "__ignore__"};
        const std::string type = kTypes[integer(0, 7)];
        m_integral = uniform(0, 1) < 0.4;
        json points = json::array();
        if (type == "polygon") {
            for (int k = integer(3, 9); k > 0; --k)
                points.push_back(point());
        } else if (type == "concave") {
            points = star();
        } else if (type == "rectangle" || type == "line") {
            points = {point(), point()};  // corners in whatever order they come
        } else if (type == "circle") {
            points = circle();
        } else if (type == "linestrip") {
            for (int k = integer(2, 7); k > 0; --k)
                points.push_back(point());
        } else {
            points.push_back(point());
        }
        return {{"label", kLabels[integer(0, 4)]},
                {"points", points},
                {"group_id", nullptr},
                {"shape_type", type == "concave" ? "polygon" : type},
                {"flags", json::object()}};
    }

private:
    double uniform(double from, double to) { return std::uniform_real_distribution<double>(from, to)(m_random); }
    int integer(int from, int to) { return std::uniform_int_distribution<int>(from, to)(m_random); }
    double coordinate(double value, int extent) const
    {
        value = std::clamp(value, -0.99, extent + 0.99);
        return m_integral ? std::round(value) : value;
    }
    json at(double x, double y) const { return {coordinate(x, m_size.width), coordinate(y, m_size.height)}; }
    json point() { return at(uniform(-0.99, m_size.width + 0.99), uniform(-0.99, m_size.height + 0.99)); }

    // A star-shaped polygon around a random centre: concave wherever a vertex dips inwards.
    json star()
    {
        const double cx = uniform(0, m_size.width), cy = uniform(0, m_size.height);
        const double radius = uniform(2, 0.6 * std::max(m_size.width, m_size.height));
        const int count = integer(3, 14);
        json points = json::array();
        for (int k = 0; k < count; ++k) {
            const double angle = 2 * M_PI * k / count + uniform(-0.3, 0.3), r = radius * uniform(0.2, 1.0);
            points.push_back(at(cx + r * std::cos(angle), cy + r * std::sin(angle)));
        }
        return points;
    }

    // Centre on the image, the point on the circle anywhere (up to half the image away, or tiny).
    json circle()
    {
        const json centre = point();
        const double r = uniform(0, 1) < 0.8 ? uniform(0, 0.5 * std::max(m_size.width, m_size.height)) : uniform(0, 3);
        const double angle = uniform(0, 2 * M_PI);
        const double x = centre[0].get<double>() + r * std::cos(angle),
                     y = centre[1].get<double>() + r * std::sin(angle);
        return {centre, {m_integral ? std::round(x) : x, m_integral ? std::round(y) : y}};
    }

    cv::Size m_size;
    std::mt19937 m_random;
    bool m_integral = false;
};

std::vector<cv::Point2d> pointsOf(const std::vector<double>& xy)
{
    std::vector<cv::Point2d> points;
    for (std::size_t k = 0; k + 1 < xy.size(); k += 2)
        points.emplace_back(xy[k], xy[k + 1]);
    return points;
}

cv::Mat maskOf(const std::vector<std::uint32_t>& runs, cv::Size size)
{
    cv::Mat mask(size, CV_8UC1, cv::Scalar(0));
    data::CocoRle::paint(runs, mask, 1);
    return mask;
}

}  // namespace

class TestShapeRasterising : public QObject {
    Q_OBJECT

private slots:
    void labelmeShapesAgreeWithPil_data()
    {
        QTest::addColumn<cv::Size>("size");
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<int>("files");
        QTest::addColumn<int>("shapes");
        QTest::addColumn<bool>("labelsFile");
        QTest::newRow("7x5") << cv::Size(7, 5) << 7u << 4 << 6 << false;
        QTest::newRow("40x30") << cv::Size(40, 30) << 1u << 6 << 12 << false;
        QTest::newRow("101x77, _background_") << cv::Size(101, 77) << 2u << 5 << 15 << true;
        QTest::newRow("640x480") << cv::Size(640, 480) << 3u << 3 << 25 << false;
    }

    // Per image, the share of pixels whose label is the one labelme2voc gives them; exact here
    // (the figure is printed for each image), 99.9 % required.
    void labelmeShapesAgreeWithPil()
    {
        QFETCH(cv::Size, size);
        QFETCH(unsigned, seed);
        QFETCH(int, files);
        QFETCH(int, shapes);
        QFETCH(bool, labelsFile);
        const QString python = pythonWith(QStringLiteral("numpy, PIL.ImageDraw"));
        if (python.isEmpty())
            QSKIP("no python3 with PIL and numpy (apt-get install python3-pil python3-numpy): nothing to compare with");
        QTemporaryDir dir;
        const fs::path set = test::path(dir, "set");
        ShapeMaker maker(size, seed);
        QStringList arguments;
        for (int f = 0; f < files; ++f) {
            const std::string stem = "f" + std::to_string(f);
            writeImage(set / (stem + ".png"), size);
            json list = json::array();
            for (int s = 0; s < shapes; ++s)
                list.push_back(maker.next());
            const json file = {{"version", "5.2.1"},         {"flags", json::object()}, {"shapes", list},
                               {"imagePath", stem + ".png"}, {"imageData", nullptr},    {"imageHeight", size.height},
                               {"imageWidth", size.width}};
            test::writeBytes(set / (stem + ".json"), file.dump(1));
            arguments << QString::fromStdString((set / (stem + ".json")).string());
        }
        fs::path labels;
        if (labelsFile) {
            labels = test::path(dir, "labels.txt");
            test::writeBytes(labels, "__ignore__\n_background_\ncar\nroad\ntree\n");
        }
        const auto project = data::LabelmeImporter::import({set, labels, {}}, test::path(dir, "l.segstudio"));

        QStringList names;
        int background = 255;
        for (const data::LabelClass& c : project.schema().classes()) {
            names << QString::fromStdString(c.name);
            if (c.name == "_background_")
                background = c.id;
        }
        const fs::path out = test::path(dir, "pil");
        const QByteArray printed = runScript(
            python,
            QStringList {QString::fromStdString((kScripts / "labelme_shape_to_mask.py").string()),
                         QStringLiteral("--classes"), names.join(QLatin1Char(',')), QStringLiteral("--background"),
                         QString::number(background), QStringLiteral("--out"), QString::fromStdString(out.string())}
                + arguments);
        QVERIFY2(printed.startsWith("PIL "), "labelme_shape_to_mask.py failed (its errors are above)");
        const QByteArray pil = printed.trimmed();

        QCOMPARE(project.size(), std::size_t(files));
        for (std::size_t i = 0; i < project.size(); ++i) {
            const std::string stem = project.imagePath(i).stem().string();
            const cv::Mat expected = cv::imread((out / (stem + ".png")).string(), cv::IMREAD_UNCHANGED);
            QCOMPARE(expected.size(), size);
            const cv::Mat ours = fs::exists(project.labelMapPath(i))
                ? data::readLabelMap(project.labelMapPath(i), project.schema())
                : cv::Mat(size, CV_8UC1, cv::Scalar(255));
            const int differing = cv::countNonZero(ours != expected);
            const double agreement = 1.0 - double(differing) / double(ours.total());
            const QByteArray figure = QByteArray(stem.c_str())
                + ".json: " + QByteArray::number(100.0 * agreement, 'f', 4) + " % of "
                + QByteArray::number(qulonglong(ours.total())) + " pixels agree with " + pil + " ("
                + QByteArray::number(differing) + " differ)";
            qInfo().noquote() << figure;
            QVERIFY2(agreement >= 0.999, figure.constData());
        }
    }

    void cocoPolygonsMatchPycocotools_data()
    {
        QTest::addColumn<std::vector<double>>("polygon");
        QTest::addColumn<cv::Size>("size");
        QTest::addColumn<std::vector<std::uint32_t>>("runs");
        QTest::addColumn<QByteArray>("counts");
        // Known answers: maskApi.c's rleFrPoly and rleToString run by hand (through
        // tests/data/coco_rle_fr_poly.py and its --strings) on these polygons; pixel counts in
        // the comments. Not "pixel centres inside": a slanted edge rounds as rleFrPoly rounds.
        QTest::newRow("triangle, 15 px") << std::vector<double> {1.5, 1.5, 6.2, 2.3, 3.3, 7.7} << cv::Size(10, 10)
                                         << std::vector<std::uint32_t> {22, 3, 7, 6, 4, 4, 6, 2, 46}
                                         << QByteArray("f0373MN2NX1");
        QTest::newRow("concave U, 48 px")
            << std::vector<double> {1, 1, 9, 1, 9, 8, 6, 8, 6, 4, 4, 4, 4, 8, 1, 8} << cv::Size(10, 12)
            << std::vector<std::uint32_t> {13, 7, 5, 7, 5, 7, 5, 3, 9, 3, 9, 7, 5, 7, 5, 7, 16}
            << QByteArray("=750000L4004L000;");
        QTest::newRow("past the border, 120 px")
            << std::vector<double> {-0.8, -0.5, 12.9, 0.2, 12.5, 9.9, 3.3, 10.7} << cv::Size(13, 11)
            << std::vector<std::uint32_t> {0, 3, 8, 5, 6, 8, 3, 54, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1}
            << QByteArray("0382N3M^1NdN000000000");
        std::vector<std::uint32_t> square {0, 20};
        for (int column = 1; column < 20; ++column)
            square.insert(square.end(), {10, 20});
        square.push_back(610);
        QTest::newRow("square 0..20, 400 px") << std::vector<double> {0, 0, 20, 0, 20, 20, 0, 20} << cv::Size(40, 30)
                                              << square << QByteArray("0d0:0000000000000000000000000000000000000hb0");
        QTest::newRow("repeated vertex, 14 px")
            << std::vector<double> {2, 2, 2, 2, 8.4, 3.1, 3, 6.6} << cv::Size(10, 8)
            << std::vector<std::uint32_t> {18, 2, 6, 4, 4, 4, 5, 2, 6, 1, 7, 1, 20} << QByteArray("b0262N01N1O10=");
        QTest::newRow("self-crossing, 27 px")
            << std::vector<double> {0.5, 0.5, 8.2, 7.9, 8.1, 0.3, 0.4, 8.6} << cv::Size(9, 9)
            << std::vector<std::uint32_t> {5, 3, 2, 6, 4, 4, 6, 2, 16, 2, 6, 4, 4, 6, 11}
            << QByteArray("53232N2N:0F2N27");
    }

    void cocoPolygonsMatchPycocotools()
    {
        QFETCH(std::vector<double>, polygon);
        QFETCH(cv::Size, size);
        QFETCH(std::vector<std::uint32_t>, runs);
        QFETCH(QByteArray, counts);
        const auto computed = data::CocoPolygonRle::runsOf(pointsOf(polygon), size);
        QCOMPARE(computed, runs);
        QCOMPARE(QByteArray::fromStdString(data::CocoRle::encode(maskOf(computed, size))), counts);
    }

    // annToMask merges an annotation's polygons: the label map holds their union, drawn through
    // the importer.
    void cocoAnnotationIsTheUnionOfItsPolygons()
    {
        QTemporaryDir dir;
        writeImage(test::path(dir, "a.png"), {10, 12});
        const std::vector<double> u {1, 1, 9, 1, 9, 8, 6, 8, 6, 4, 4, 4, 4, 8, 1, 8};
        const std::vector<double> triangle {1.5, 1.5, 6.2, 2.3, 3.3, 7.7};
        const json coco = {
            {"images", {{{"id", 1}, {"file_name", "a.png"}, {"width", 10}, {"height", 12}}}},
            {"categories", {{{"id", 1}, {"name", "thing"}}}},
            {"annotations",
             {{{"id", 1}, {"image_id", 1}, {"category_id", 1}, {"iscrowd", 0}, {"segmentation", {u, triangle}}}}}};
        test::writeBytes(test::path(dir, "coco.json"), coco.dump());
        const auto project = data::CocoImporter::import(
            {test::path(dir, "coco.json"), dir.path().toStdString(), {}, {}, {}}, test::path(dir, "c.segstudio"));
        const cv::Mat labels = data::readLabelMap(project.labelMapPath(0), project.schema());
        const cv::Size size(10, 12);
        const cv::Mat expected = maskOf(data::CocoPolygonRle::runsOf(pointsOf(u), size), size)
            | maskOf(data::CocoPolygonRle::runsOf(pointsOf(triangle), size), size);
        QCOMPARE(cv::countNonZero(expected), 48 + 2);  // the triangle adds 2 pixels in the U's gap
        QVERIFY(test::sameMat(labels == 0, expected == 1));
    }

    // Random polygons (concave, self-crossing, past the border, on whole and half pixels) against
    // the Python port of rleFrPoly: the same runs, exactly.
    void cocoRandomPolygonsMatchAPortOfRleFrPoly()
    {
        const QString python = pythonWith(QStringLiteral("json"));
        if (python.isEmpty())
            QSKIP("no python3: nothing to compare with");
        std::mt19937 random(11);
        const auto uniform = [&](double from, double to) {
            return std::uniform_real_distribution<double>(from, to)(random);
        };
        for (const cv::Size size : {cv::Size(13, 11), cv::Size(40, 30), cv::Size(101, 77)}) {
            json polygons = json::array();
            for (int n = 0; n < 120; ++n) {
                const int count = std::uniform_int_distribution<int>(3, 12)(random);
                const double snap = n % 3 == 0 ? 1.0 : n % 3 == 1 ? 2.0 : 0.0;  // whole, half or any
                std::vector<double> xy;
                for (int k = 0; k < count; ++k)
                    for (const int extent : {size.width, size.height}) {
                        const double v = uniform(-1, extent + 1);
                        xy.push_back(snap > 0 ? std::round(v * snap) / snap : v);
                    }
                polygons.push_back(xy);
            }
            const json request = {{"height", size.height}, {"width", size.width}, {"polygons", polygons}};
            const QByteArray printed =
                runScript(python, {QString::fromStdString((kScripts / "coco_rle_fr_poly.py").string())},
                          QByteArray::fromStdString(request.dump()));
            QVERIFY2(!printed.isEmpty(), "coco_rle_fr_poly.py failed (its errors are above)");
            const json expected = json::parse(printed.toStdString());
            QCOMPARE(expected.size(), polygons.size());
            for (std::size_t n = 0; n < polygons.size(); ++n) {
                const auto runs = data::CocoPolygonRle::runsOf(pointsOf(polygons[n].get<std::vector<double>>()), size);
                QVERIFY2(runs == expected[n].get<std::vector<std::uint32_t>>(), polygons[n].dump().c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestShapeRasterising)
#include "test_ShapeRasterising.moc"
