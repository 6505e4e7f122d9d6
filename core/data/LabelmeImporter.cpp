#include "LabelmeImporter.h"

#include "Base64.h"
#include "DataError.h"
#include "DistinctColor.h"
#include "ImportJob.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <fstream>
#include <map>

namespace segstudio::data {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kIgnore = "__ignore__";
constexpr const char* kBackground = "_background_";

enum class ShapeKind { Polygon, Rectangle, Circle };

struct Shape {
    ShapeKind kind = ShapeKind::Polygon;
    std::string label;
    std::vector<cv::Point2d> points;
};

struct LabelmeFile {
    fs::path json;
    fs::path image;
    std::string embeddedImage;  // bytes, when the image is not beside the JSON
    cv::Size size;
    std::vector<Shape> shapes;
};

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

class LabelmeReader {
public:
    explicit LabelmeReader(LabelmeImportSummary& summary) : m_summary(summary) {}

    LabelmeFile read(const fs::path& path)
    {
        json document;
        try {
            document = json::parse(run::readFile(path));
        } catch (const json::parse_error& error) {
            throw DataError(path.string(), std::string("not valid JSON (truncated?): ") + error.what());
        }
        if (!document.is_object() || !document.contains("shapes") || !document.contains("imagePath"))
            throw DataError(path.string(), "not a labelme file (no 'shapes' and 'imagePath')");
        LabelmeFile file;
        file.json = path;
        try {
            readImage(document, file);
            const json& shapes = document["shapes"];
            for (std::size_t s = 0; s < shapes.size(); ++s)
                readShape(shapes[s], s, file);
        } catch (const json::exception& error) {
            throw DataError(path.string(), error.what());
        }
        return file;
    }

private:
    void readImage(const json& document, LabelmeFile& file)
    {
        file.image = file.json.parent_path() / document["imagePath"].get<std::string>();
        if (document.contains("imageHeight") && document.contains("imageWidth") && !document["imageHeight"].is_null())
            file.size = cv::Size(document["imageWidth"].get<int>(), document["imageHeight"].get<int>());
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
        const std::string record = "shape " + std::to_string(number);
        const std::string type = shape.value("shape_type", std::string("polygon"));
        Shape parsed;
        parsed.label = shape.at("label").get<std::string>();
        for (const json& point : shape.at("points"))
            parsed.points.emplace_back(point.at(0).get<double>(), point.at(1).get<double>());
        if (type == "polygon")
            parsed.kind = ShapeKind::Polygon;
        else if (type == "rectangle")
            parsed.kind = ShapeKind::Rectangle;
        else if (type == "circle")
            parsed.kind = ShapeKind::Circle;
        else {
            ++m_summary.ignoredShapes;  // line, linestrip, point, points, mask: no area to fill
            return;
        }
        const std::size_t needed = parsed.kind == ShapeKind::Polygon ? 3 : 2;
        if (parsed.points.size() < needed)
            throw DataError(file.json.string(), record + ": " + type + " with " + std::to_string(parsed.points.size()) + " points");
        file.shapes.push_back(std::move(parsed));
    }

    LabelmeImportSummary& m_summary;
};

// labelme draws with PIL at integer pixel centres; OpenCV's fill does the same, 3 fractional bits kept.
void drawShape(const Shape& shape, cv::Mat& labels, std::uint8_t value)
{
    constexpr int kShift = 3;
    auto fixed = [](const cv::Point2d& p) { return cv::Point(int(std::lround(p.x * 8)), int(std::lround(p.y * 8))); };
    switch (shape.kind) {
    case ShapeKind::Polygon: {
        std::vector<cv::Point> points;
        for (const auto& p : shape.points)
            points.push_back(fixed(p));
        cv::fillPoly(labels, std::vector<std::vector<cv::Point>>{points}, cv::Scalar(value), cv::LINE_8, kShift);
        break;
    }
    case ShapeKind::Rectangle:
        cv::rectangle(labels, fixed(shape.points[0]), fixed(shape.points[1]), cv::Scalar(value), cv::FILLED, cv::LINE_8, kShift);
        break;
    case ShapeKind::Circle: {
        const double radius = cv::norm(shape.points[1] - shape.points[0]);
        cv::circle(labels, fixed(shape.points[0]), int(std::lround(radius * 8)), cv::Scalar(value), cv::FILLED, cv::LINE_8, kShift);
        break;
    }
    }
}

// The embedded images written for this import, removed again unless the import succeeds.
class EmbeddedImages {
public:
    explicit EmbeddedImages(const fs::path& projectFile)
        : m_folder(fs::absolute(projectFile).parent_path() / (projectFile.stem().string() + ".images"))
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
        if (m_written.empty() && fs::is_directory(m_folder) && !fs::is_empty(m_folder))
            throw DataError(m_folder.string(), "holds files this import did not write; choose another project name");
        fs::create_directories(m_folder);
        const std::string extension = fs::path(file.image).extension().empty() ? ".png" : file.image.extension().string();
        fs::path target = m_folder / (file.json.stem().string() + extension);
        for (int n = 2; std::find(m_written.begin(), m_written.end(), target) != m_written.end(); ++n)
            target = m_folder / (file.json.stem().string() + "-" + std::to_string(n) + extension);
        run::writeFileAtomically(target, file.embeddedImage);
        m_written.push_back(target);
        return target;
    }
    void keep() { m_kept = true; }

private:
    fs::path m_folder;
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

    EmbeddedImages embedded(projectFile);
    std::vector<ImportItem> items;
    for (LabelmeFile& file : files) {
        if (!file.embeddedImage.empty()) {
            file.image = embedded.write(file);
            file.embeddedImage.clear();
            ++summary.embeddedImages;
        }
        items.push_back({file.image, request.split, !file.shapes.empty() || background != kUnlabelled, file.size});
    }
    Project project = ImportJob(projectFile, ClassSchema(classes), progress).run(items, [&](std::size_t n, cv::Size size) {
        cv::Mat labels(size, CV_8UC1, cv::Scalar(background));
        for (const Shape& shape : files[n].shapes)
            drawShape(shape, labels, valueOf.at(shape.label));
        return labels;
    });
    embedded.keep();
    summary.files = files.size();
    if (summaryOut)
        *summaryOut = summary;
    return project;
}

}  // namespace segstudio::data
