#include "LabelmeImporter.h"

#include "Base64.h"
#include "data/labels/DataError.h"
#include "data/labels/DistinctColor.h"
#include "data/labels/ImageHeader.h"
#include "ImportJob.h"
#include "PilDraw.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kIgnore = "__ignore__";
constexpr const char* kBackground = "_background_";
// labelme's shape_to_mask: lines and line strips 10 px wide, a point a disc of radius 5.
constexpr int kLineWidth = 10;
constexpr double kPointRadius = 5;

enum class ShapeKind { Polygon, Rectangle, Circle, Line, LineStrip, Point };

// The shape types labelme2voc draws, with the point counts shape_to_mask asserts (a polygon needs
// more than 2; a line strip of one point draws nothing there, so it is let through).
struct ShapeType {
    const char* name;
    ShapeKind kind;
    std::size_t fewest;
    std::size_t most;
};
constexpr std::size_t kAnyNumber = std::numeric_limits<std::size_t>::max();
constexpr ShapeType kShapeTypes[] = {{"polygon", ShapeKind::Polygon, 3, kAnyNumber},
                                     {"rectangle", ShapeKind::Rectangle, 2, 2},
                                     {"circle", ShapeKind::Circle, 2, 2},
                                     {"line", ShapeKind::Line, 2, 2},
                                     {"linestrip", ShapeKind::LineStrip, 1, kAnyNumber},
                                     {"point", ShapeKind::Point, 1, 1}};

struct Shape {
    ShapeKind kind = ShapeKind::Polygon;
    std::string name;  // "shape 3 ('car')", for messages
    std::string label;
    std::vector<cv::Point2d> points;
};

struct LabelmeFile {
    fs::path json;
    fs::path image;
    std::string embeddedImage;             // bytes, when the image is not beside the JSON
    std::optional<cv::Size2d> declaredSize;  // imageWidth x imageHeight, when the file gives both
    cv::Size size;                         // the image's own, read before anything is drawn
    std::vector<Shape> shapes;
};

// 5000, 12.5, 1e+10: a coordinate as a person would write it.
std::string numberText(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

std::string sizeText(cv::Size size)
{
    return std::to_string(size.width) + "x" + std::to_string(size.height);
}

// "shape 3 ('car')", or "shape 3" when its label is not a string.
std::string shapeName(const json& shape, std::size_t number)
{
    std::string name = "shape " + std::to_string(number);
    if (shape.is_object() && shape.contains("label") && shape["label"].is_string())
        name += " ('" + shape["label"].get<std::string>() + "')";
    return name;
}

std::string shapeTypeOf(const json& shape)
{
    if (!shape.contains("shape_type") || shape["shape_type"].is_null())
        return "polygon";  // what labelme draws a shape without a type as
    return shape["shape_type"].get<std::string>();
}

const ShapeType* findShapeType(const std::string& name)
{
    for (const ShapeType& type : kShapeTypes)
        if (name == type.name)
            return &type;
    return nullptr;
}

std::vector<fs::path> jsonFilesIn(const fs::path& folder)
{
    std::vector<fs::path> files;
    for (const auto& item : fs::recursive_directory_iterator(folder))
        if (item.is_regular_file() && item.path().extension() == ".json")
            files.push_back(item.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::string> readLabelsFile(const fs::path& file)
{
    std::ifstream stream(file);
    if (!stream)
        throw DataError(file.string(), "cannot read the labels file");
    std::vector<std::string> names;
    for (std::string line; std::getline(stream, line);) {
        line.erase(std::find_if(line.rbegin(), line.rend(), [](unsigned char c) { return !std::isspace(c); }).base(), line.end());
        if (!line.empty() && std::find(names.begin(), names.end(), line) == names.end())
            names.push_back(line);
    }
    return names;
}

// Follows the parser through labelme's "shapes" list, so that a file it cannot read is named with
// the shape it stops in: labelme (Python's json) writes a non-finite coordinate as NaN or
// Infinity, which JSON has not, and 1e999 overflows a double. Depths as nlohmann's callback gives
// them: the top object's keys 1, the list's shapes 2, a shape's keys and values 3.
class ShapeLocator {
public:
    bool follow(int depth, json::parse_event_t event, const json& parsed)
    {
        using Event = json::parse_event_t;
        if (event == Event::key && depth == 1) {
            m_atShapes = isString(parsed, "shapes");
        } else if (depth == 1 && (event == Event::array_start || event == Event::array_end)) {
            m_inShapes = event == Event::array_start && m_atShapes;
        } else if (m_inShapes && event == Event::object_start && depth == 2) {
            ++m_started;
            m_label.reset();
        } else if (m_inShapes && event == Event::key && depth == 3) {
            m_atLabel = isString(parsed, "label");
        } else if (m_inShapes && event == Event::value && depth == 3 && m_atLabel && parsed.is_string()) {
            m_label = parsed.get<std::string>();
        }
        return true;
    }

    // "shape 3 ('car')" while inside a shape, else empty.
    std::string where() const
    {
        if (!m_inShapes || m_started == 0)
            return {};
        return "shape " + std::to_string(m_started - 1) + (m_label ? " ('" + *m_label + "')" : std::string());
    }

private:
    static bool isString(const json& value, const char* text)
    {
        return value.is_string() && value.get<std::string>() == text;
    }

    bool m_atShapes = false, m_inShapes = false, m_atLabel = false;
    std::size_t m_started = 0;
    std::optional<std::string> m_label;
};

class LabelmeReader {
public:
    explicit LabelmeReader(LabelmeImportSummary& summary) : m_summary(summary) {}

    LabelmeFile read(const fs::path& path)
    {
        const json document = parse(path);
        if (!document.is_object() || !document.contains("shapes") || !document.contains("imagePath"))
            throw DataError(path.string(), "not a labelme file (no 'shapes' and 'imagePath')");
        LabelmeFile file;
        file.json = path;
        try {
            readImage(document, file);
        } catch (const json::exception& error) {
            throw DataError(path.string(), error.what());
        }
        const json& shapes = document["shapes"];
        if (!shapes.is_array())
            throw DataError(path.string(), "'shapes' is not a list");
        for (std::size_t s = 0; s < shapes.size(); ++s) {
            try {
                readShape(shapes[s], s, file);
            } catch (const json::exception& error) {
                throw DataError(path.string(), shapeName(shapes[s], s) + ": " + error.what());
            }
        }
        return file;
    }

private:
    // Parsed once; a file that fails is parsed again with a ShapeLocator to say where it failed.
    static json parse(const fs::path& path)
    {
        const std::string text = run::readFile(path);
        try {
            return json::parse(text);
        } catch (const json::exception& error) {
            ShapeLocator locator;
            const auto follow = [&locator](int depth, json::parse_event_t event, json& parsed) {
                return locator.follow(depth, event, parsed);
            };
            const bool failsAgain = json::parse(text, follow, /*allow_exceptions=*/false).is_discarded();
            const std::string where = failsAgain ? locator.where() : std::string();
            if (where.empty())
                throw DataError(path.string(), std::string("not valid JSON (truncated?): ") + error.what());
            throw DataError(path.string(),
                            where + ": not valid JSON (a coordinate NaN, Infinity or out of range?): " + error.what());
        }
    }

    static std::optional<cv::Size2d> declaredSize(const json& document)
    {
        const auto given = [&](const char* key) { return document.contains(key) && !document[key].is_null(); };
        if (!given("imageWidth") || !given("imageHeight"))
            return std::nullopt;
        return cv::Size2d(document["imageWidth"].get<double>(), document["imageHeight"].get<double>());
    }

    void readImage(const json& document, LabelmeFile& file)
    {
        file.image = file.json.parent_path() / document["imagePath"].get<std::string>();
        file.declaredSize = declaredSize(document);
        if (fs::exists(file.image))
            return;
        if (!document.contains("imageData") || !document["imageData"].is_string())
            throw DataError(file.json.string(), "image not found: " + file.image.string() + " (and no imageData)");
        const auto bytes = decodeBase64(document["imageData"].get<std::string>());
        if (!bytes || bytes->empty())
            throw DataError(file.json.string(), "imageData is not base64");
        file.embeddedImage = *bytes;
    }

    void readShape(const json& shape, std::size_t number, LabelmeFile& file)
    {
        const std::string typeName = shapeTypeOf(shape);
        const ShapeType* type = findShapeType(typeName);
        if (!type) {
            ++m_summary.ignoredShapes;  // mask (or a type labelme2voc does not know): not drawn
            return;
        }
        Shape parsed;
        parsed.kind = type->kind;
        parsed.name = shapeName(shape, number);
        parsed.label = shape.at("label").get<std::string>();
        for (const json& point : shape.at("points"))
            parsed.points.emplace_back(point.at(0).get<double>(), point.at(1).get<double>());
        const std::size_t count = parsed.points.size();
        if (count < type->fewest || count > type->most)
            throw DataError(file.json.string(),
                            parsed.name + ": " + typeName + " with " + std::to_string(count) + " points");
        file.shapes.push_back(std::move(parsed));
    }

    LabelmeImportSummary& m_summary;
};

// imageWidth/imageHeight must be the image's own size: shapes drawn for another size are drawn
// wrong, and the label map is allocated at the image's size, never at the file's word for it.
void checkDeclaredSize(const LabelmeFile& file)
{
    if (!file.declaredSize)
        return;
    const cv::Size2d said = *file.declaredSize;
    if (said.width == file.size.width && said.height == file.size.height)
        return;
    std::string problem = "imageWidth x imageHeight say " + numberText(said.width) + "x" + numberText(said.height) +
                          ", but " + file.image.string() + " is " + sizeText(file.size);
    if (said.width == file.size.height && said.height == file.size.width)
        problem += " (turned by an EXIF orientation? SegStudio labels the pixels as stored)";
    throw DataError(file.json.string(), problem);
}

// A point more than a pixel outside the image is a wrong file, not an annotation (labelme keeps
// points on the image; a pixel of slack for tools that round). A circle may reach past the image,
// but not past its diagonal, so nothing drawn is ever larger than a few images.
void checkShape(const LabelmeFile& file, const Shape& shape)
{
    const auto fail = [&](const std::string& problem) {
        throw DataError(file.json.string(), shape.name + ": " + problem);
    };
    const cv::Size size = file.size;
    for (std::size_t k = 0; k < shape.points.size(); ++k) {
        if (shape.kind == ShapeKind::Circle && k == 1)
            continue;  // a point on the circle: its radius is checked below
        const cv::Point2d& p = shape.points[k];
        // Written so that NaN fails too.
        if (!(p.x >= -1 && p.y >= -1 && p.x <= size.width + 1 && p.y <= size.height + 1))
            fail("point (" + numberText(p.x) + ", " + numberText(p.y) + ") is outside the " + sizeText(size) +
                 " image");
    }
    if (shape.kind == ShapeKind::Circle) {
        const double radius = std::hypot(shape.points[1].x - shape.points[0].x, shape.points[1].y - shape.points[0].y);
        const double diagonal = std::hypot(double(size.width), double(size.height));
        if (!(radius <= diagonal))
            fail("circle of radius " + numberText(radius) + " reaches past the " + sizeText(size) +
                 " image's diagonal (" + numberText(diagonal) + ")");
    }
}

// labelme's shape_to_mask (labelme/utils/shape.py) on the label map: PIL's ImageDraw with outline
// and fill the same, points as pixel coordinates.
void drawShape(const Shape& shape, PilDraw& draw, std::uint8_t value)
{
    const std::vector<cv::Point2d>& p = shape.points;
    switch (shape.kind) {
    case ShapeKind::Polygon:
        draw.polygon(p, value);
        break;
    case ShapeKind::Rectangle:
        draw.rectangle(p[0], p[1], value);
        break;
    case ShapeKind::Circle: {
        // d = sqrt((cx - px) ** 2 + (cy - py) ** 2), as labelme computes it
        const double d = std::sqrt((p[0].x - p[1].x) * (p[0].x - p[1].x) + (p[0].y - p[1].y) * (p[0].y - p[1].y));
        draw.ellipse({p[0].x - d, p[0].y - d}, {p[0].x + d, p[0].y + d}, value);
        break;
    }
    case ShapeKind::Line:
    case ShapeKind::LineStrip:
        draw.line(p, kLineWidth, value);
        break;
    case ShapeKind::Point:
        draw.ellipse({p[0].x - kPointRadius, p[0].y - kPointRadius}, {p[0].x + kPointRadius, p[0].y + kPointRadius},
                     value);
        break;
    }
}

// The embedded images written for this import, removed again unless the import succeeds.
class EmbeddedImages {
public:
    explicit EmbeddedImages(const fs::path& projectFile)
        : m_folder(fs::absolute(projectFile).parent_path() / (projectFile.stem().string() + ".images")),
          m_projectFile(projectFile)
    {
    }
    ~EmbeddedImages()
    {
        if (m_kept)
            return;
        std::error_code error;
        for (const fs::path& file : m_written)
            fs::remove(file, error);
        if (!m_written.empty() && fs::is_empty(m_folder, error))
            fs::remove(m_folder, error);
    }

    fs::path write(const LabelmeFile& file)
    {
        if (m_written.empty())
            prepareFolder();
        const std::string extension = fs::path(file.image).extension().empty() ? ".png" : file.image.extension().string();
        fs::path target = m_folder / (file.json.stem().string() + extension);
        for (int n = 2; std::find(m_written.begin(), m_written.end(), target) != m_written.end(); ++n)
            target = m_folder / (file.json.stem().string() + "-" + std::to_string(n) + extension);
        run::writeFileAtomically(target, file.embeddedImage);
        m_written.push_back(target);
        return target;
    }
    void keep()
    {
        m_kept = true;
        std::error_code error;
        fs::remove(m_folder / ImportJob::kMarker, error);  // the import is finished: the folder is the project's
    }

private:
    // A folder an interrupted import of this same project file left (its marker says so) is
    // cleared; any other that holds files is refused. The marker goes when the import succeeds.
    void prepareFolder()
    {
        std::error_code error;
        if (fs::is_directory(m_folder, error) && !fs::is_empty(m_folder, error)) {
            if (!ImportJob::isMarkedFor(m_folder, m_projectFile) && !run::holdsOnlyUnfinishedWriteOf(m_folder, ImportJob::kMarker))
                throw DataError(m_folder.string(), "holds files this import did not write; choose another project name");
            fs::remove_all(m_folder, error);
        }
        fs::create_directories(m_folder);
        run::writeFileAtomically(m_folder / ImportJob::kMarker, ImportJob::markerText(m_projectFile));
        m_written.push_back(m_folder / ImportJob::kMarker);
    }

    fs::path m_folder;
    fs::path m_projectFile;
    std::vector<fs::path> m_written;
    bool m_kept = false;
};

}  // namespace

Project LabelmeImporter::import(const LabelmeImportRequest& request, const fs::path& projectFile,
                                const ImportProgress& progress, LabelmeImportSummary* summaryOut)
{
    LabelmeImportSummary summary;
    if (!fs::is_directory(request.folder))
        throw DataError(request.folder.string(), "is not a folder");
    std::vector<LabelmeFile> files;
    LabelmeReader reader(summary);
    for (const fs::path& path : jsonFilesIn(request.folder))
        files.push_back(reader.read(path));
    if (files.empty())
        throw DataError(request.folder.string(), "holds no labelme JSON files");

    std::vector<std::string> names;
    const bool fromFile = !request.labelsFile.empty();
    if (fromFile)
        names = readLabelsFile(request.labelsFile);
    for (const LabelmeFile& file : files)
        for (std::size_t s = 0; s < file.shapes.size(); ++s) {
            const std::string& label = file.shapes[s].label;
            if (label == kIgnore || std::find(names.begin(), names.end(), label) != names.end())
                continue;
            if (fromFile)
                throw DataError(file.json.string(), "shape label '" + label + "' is not in " + request.labelsFile.string());
            names.push_back(label);
        }
    names.erase(std::remove(names.begin(), names.end(), kIgnore), names.end());
    if (names.empty())
        throw DataError(request.folder.string(), "no class: no shape has a label, and no labels file was given");
    if (names.size() > 254)
        throw DataError(request.folder.string(), "more than 254 classes");
    std::vector<LabelClass> classes;
    std::vector<Rgb> taken;
    std::map<std::string, std::uint8_t> valueOf{{kIgnore, kUnlabelled}};
    for (const std::string& name : names) {
        const Rgb color = name == kBackground ? Rgb{0, 0, 0} : distinctColor(taken);
        taken.push_back(color);
        valueOf[name] = std::uint8_t(classes.size());
        classes.push_back({int(classes.size()), name, color, ""});
    }
    const auto background = valueOf.count(kBackground) ? valueOf[kBackground] : kUnlabelled;

    // The project file is claimed before anything is written, embedded images included: two
    // imports of one project never write into the same <name>.images/.
    ImportJob job(projectFile, ClassSchema(classes), progress);
    job.claim();
    EmbeddedImages embedded(projectFile);
    std::vector<ImportItem> items;
    for (LabelmeFile& file : files) {
        if (!file.embeddedImage.empty()) {
            file.image = embedded.write(file);
            file.embeddedImage.clear();
            ++summary.embeddedImages;
        }
        file.size = readImageSize(file.image);  // its header: nothing is decoded
        checkDeclaredSize(file);
        for (const Shape& shape : file.shapes)
            checkShape(file, shape);
        items.push_back({file.image, request.split, !file.shapes.empty() || background != kUnlabelled, file.size});
    }
    Project project = job.run(items, [&](std::size_t n, cv::Size size) {
        cv::Mat labels(size, CV_8UC1, cv::Scalar(background));
        PilDraw draw(labels);
        for (const Shape& shape : files[n].shapes)
            drawShape(shape, draw, valueOf.at(shape.label));
        return labels;
    });
    embedded.keep();
    summary.files = files.size();
    if (summaryOut)
        *summaryOut = summary;
    return project;
}

}  // namespace formats
}  // namespace segstudio::data
