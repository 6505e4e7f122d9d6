#include "FormatExporter.h"

#include "CocoRle.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "PilDraw.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <fstream>
#include <map>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The dense id of each class (its position in id order), and the dense schema.
struct DenseClasses {
    explicit DenseClasses(const ClassSchema& schema)
    {
        lookup = cv::Mat(1, 256, CV_8U, cv::Scalar(kUnlabelled));
        std::vector<LabelClass> classes;
        for (const LabelClass& c : schema.classes()) {
            lookup.at<std::uint8_t>(c.id) = std::uint8_t(classes.size());
            classes.push_back({int(classes.size()), c.name, c.color, c.hotkey});
        }
        dense = ClassSchema(classes);
    }
    cv::Mat apply(const cv::Mat& labels) const
    {
        cv::Mat mapped;
        cv::LUT(labels, lookup, mapped);
        return mapped;
    }
    cv::Mat lookup;
    ClassSchema dense;
};

std::string nameOf(const ImageEntry& entry) { return fs::path(entry.labelMap).stem().string(); }

std::string splitFolder(Split split)
{
    return split == Split::Unassigned ? "unassigned" : toString(split);
}

// Calls write(index, dense labels) for every image with a label map, in project order.
template <typename Write>
std::size_t forEachLabelled(const Project& project, const DenseClasses& classes, const ImportProgress& progress, Write write)
{
    std::size_t written = 0;
    for (std::size_t i = 0; i < project.size(); ++i) {
        const fs::path source = project.labelMapPath(i);
        if (fs::exists(source)) {
            write(i, classes.apply(readLabelMap(source, project.schema())));
            ++written;
        }
        if (progress && !progress(i + 1, project.size()))
            throw ImportCancelled();
    }
    return written;
}

// A hard link where the file system allows one, else a copy; `asPng` re-encodes other formats.
void placeImage(const fs::path& source, const fs::path& target, bool asPng = false)
{
    fs::create_directories(target.parent_path());
    std::error_code error;
    fs::remove(target, error);
    if (asPng && source.extension() != ".png" && source.extension() != ".PNG") {
        writeImageRgb(target, readImageRgb(source), run::Durability::Deferred);
        return;
    }
    fs::create_hard_link(source, target, error);
    if (error && !fs::copy_file(source, target, fs::copy_options::overwrite_existing, error))
        throw DataError(target.string(), "cannot copy " + source.string() + ": " + error.message());
}

void writeText(const fs::path& file, const std::string& text)
{
    fs::create_directories(file.parent_path());
    run::writeFileAtomically(file, text);
}

json rleAnnotation(const cv::Mat& mask, std::size_t id, std::size_t imageId, int category)
{
    const cv::Rect box = cv::boundingRect(mask);
    return {{"id", id},
            {"image_id", imageId},
            {"category_id", category},
            {"iscrowd", 0},
            {"area", cv::countNonZero(mask)},
            {"bbox", {box.x, box.y, box.width, box.height}},
            {"segmentation", {{"size", {mask.rows, mask.cols}}, {"counts", CocoRle::encode(mask)}}}};
}

// The region with its holes filled: what its outer outline encloses (holes are drawn over it by
// the smaller shapes that come after it). The 4-connected region's outside is 8-connected.
cv::Mat withHolesFilled(const cv::Mat& mask)
{
    cv::Mat outside;
    cv::copyMakeBorder(mask, outside, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::floodFill(outside, cv::Point(0, 0), cv::Scalar(128), nullptr, cv::Scalar(0), cv::Scalar(0), 8);
    return outside(cv::Rect(1, 1, mask.cols, mask.rows)) != 128;
}

// Whether PIL's fill of `outline` (labelme's own drawing) covers the region `mask` (of the box at
// `origin`, holes filled) closely enough: all but a pixel in 500 of the region agree.
bool drawsTheRegion(const std::vector<cv::Point>& outline, const cv::Mat& region, cv::Point origin)
{
    const cv::Mat mask = withHolesFilled(region);
    cv::Mat drawn(mask.size(), CV_8UC1, cv::Scalar(0));
    std::vector<cv::Point2d> points;
    for (const cv::Point& p : outline)
        points.emplace_back(p.x - origin.x, p.y - origin.y);
    PilDraw(drawn).polygon(points, 255);
    const int differing = cv::countNonZero(drawn != mask);
    return differing * 500 <= std::max(1, cv::countNonZero(mask));
}

// One labelme shape per connected region of every class, and of unlabelled pixels enclosed by
// others (holes), larger regions first so each smaller one is drawn over the region around it.
json labelmeShapes(const cv::Mat& labels, const ClassSchema& schema, double tolerance)
{
    struct Region {
        double area;
        std::string label;
        std::vector<cv::Point> points;
        bool hole;
        bool rectangle;
    };
    std::vector<Region> regions;
    // Regions are 4-connected: two regions touching only at a corner are traced apart, so a region
    // that reaches through a diagonal gap into another's hole never outgrows it in the draw order.
    auto collect = [&](std::uint8_t value, const std::string& label, bool hole) {
        cv::Mat components, stats, centroids;
        const int count = cv::connectedComponentsWithStats(labels == value, components, stats, centroids, 4, CV_32S);
        for (int n = 1; n < count; ++n) {
            const cv::Rect box(stats.at<int>(n, cv::CC_STAT_LEFT), stats.at<int>(n, cv::CC_STAT_TOP),
                               stats.at<int>(n, cv::CC_STAT_WIDTH), stats.at<int>(n, cv::CC_STAT_HEIGHT));
            if (hole && (box.x == 0 || box.y == 0 || box.br().x == labels.cols || box.br().y == labels.rows))
                continue;  // unlabelled at the border is outside every shape already
            std::vector<std::vector<cv::Point>> contours;
            cv::findContours(components(box) == n, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE, box.tl());
            std::vector<cv::Point> simplified;
            cv::approxPolyDP(contours.front(), simplified, tolerance, true);
            // labelme draws polygons with PIL (PilDraw): keep the simplified outline only while
            // PIL's fill of it gives back the region, else the whole traced outline.
            if (simplified.size() >= 3 && !drawsTheRegion(simplified, components(box) == n, box.tl()))
                simplified = contours.front();
            // One or two pixels have no polygon: labelme's rectangle (corners inclusive) holds them.
            const bool rectangle = simplified.size() < 3;
            if (rectangle)
                simplified = {box.tl(), box.br() - cv::Point(1, 1)};
            regions.push_back({double(stats.at<int>(n, cv::CC_STAT_AREA)), label, std::move(simplified), hole, rectangle});
        }
    };
    for (const LabelClass& c : schema.classes())
        collect(std::uint8_t(c.id), c.name, false);
    collect(kUnlabelled, "__ignore__", true);
    std::stable_sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) { return a.area > b.area; });
    json shapes = json::array();
    for (const Region& region : regions) {
        json points = json::array();
        for (const cv::Point& p : region.points)
            points.push_back({p.x, p.y});
        shapes.push_back({{"label", region.label},
                          {"points", points},
                          {"group_id", nullptr},
                          {"shape_type", region.rectangle ? "rectangle" : "polygon"},
                          {"flags", region.hole ? json{{"hole", true}} : json::object()}});
    }
    return shapes;
}

}  // namespace

std::size_t FormatExporter::exportCoco(const Project& project, const fs::path& outDir, const ImportProgress& progress,
                                      const std::string& background)
{
    const DenseClasses classes(project.schema());
    const auto exported = [&background](const LabelClass& c) { return c.name != background; };
    if (!background.empty() && std::all_of(classes.dense.classes().begin(), classes.dense.classes().end(), exported))
        throw DataError(project.file().string(), "has no class named '" + background + "' to leave out as the background");
    json images = json::array(), annotations = json::array(), categories = json::array();
    for (const LabelClass& c : classes.dense.classes())
        if (exported(c))
            categories.push_back({{"id", c.id + 1}, {"name", c.name}, {"color", {c.color.r, c.color.g, c.color.b}}, {"supercategory", ""}});
    const std::size_t written = forEachLabelled(project, classes, progress, [&](std::size_t i, const cv::Mat& labels) {
        images.push_back({{"id", i + 1}, {"file_name", project.entry(i).image}, {"width", labels.cols}, {"height", labels.rows}});
        for (const LabelClass& c : classes.dense.classes()) {
            if (!exported(c))
                continue;
            const cv::Mat mask = labels == c.id;
            if (cv::countNonZero(mask) > 0)
                annotations.push_back(rleAnnotation(mask, annotations.size() + 1, i + 1, c.id + 1));
        }
    });
    const json file = {{"info", {{"description", "exported by SegStudio from " + project.file().filename().string()}}},
                       {"images", images},
                       {"annotations", annotations},
                       {"categories", categories}};
    writeText(outDir / "annotations.json", file.dump() + "\n");
    return written;
}

std::size_t FormatExporter::exportCityscapes(const Project& project, const fs::path& outDir, const ImportProgress& progress)
{
    const DenseClasses classes(project.schema());
    const std::size_t written = forEachLabelled(project, classes, progress, [&](std::size_t i, const cv::Mat& labels) {
        const ImageEntry& entry = project.entry(i);
        const fs::path folder = fs::path(splitFolder(entry.split)) / "segstudio";
        placeImage(project.imagePath(i), outDir / "leftImg8bit" / folder / (nameOf(entry) + "_leftImg8bit.png"), true);
        const fs::path target = outDir / "gtFine" / folder / (nameOf(entry) + "_gtFine_labelIds.png");
        fs::create_directories(target.parent_path());
        writeImageGray(target, labels, run::Durability::Deferred);
    });
    writeText(outDir / "classes.json", json{{"classes", classes.dense.toJson()}}.dump(2) + "\n");
    run::syncFolder(outDir);
    return written;
}

std::size_t FormatExporter::exportLabelme(const Project& project, const fs::path& outDir, double tolerance,
                                          const ImportProgress& progress)
{
    const DenseClasses classes(project.schema());
    fs::create_directories(outDir);
    const std::size_t written = forEachLabelled(project, classes, progress, [&](std::size_t i, const cv::Mat& labels) {
        const fs::path image = project.imagePath(i);
        const json document = {{"version", "5.2.1"},
                               {"flags", json::object()},
                               {"shapes", labelmeShapes(labels, classes.dense, tolerance)},
                               {"imagePath", fs::relative(image, fs::absolute(outDir)).generic_string()},
                               {"imageData", nullptr},
                               {"imageHeight", labels.rows},
                               {"imageWidth", labels.cols}};
        run::writeFileAtomically(outDir / (nameOf(project.entry(i)) + ".json"), document.dump() + "\n",
                                 run::Durability::Deferred);
    });
    std::string names = "__ignore__\n";
    for (const LabelClass& c : classes.dense.classes())
        names += c.name + "\n";
    writeText(outDir / "labels.txt", names);
    run::syncFolder(outDir);
    return written;
}

std::size_t FormatExporter::exportCvatMasks(const Project& project, const fs::path& outDir, const ImportProgress& progress)
{
    const DenseClasses classes(project.schema());
    std::string labelmap = "# label:color_rgb:parts:actions\nbackground:0,0,0::\n";
    std::map<std::uint32_t, std::string> colourOwner{{packRgb({0, 0, 0}), "background (unlabelled)"}};
    for (const LabelClass& c : classes.dense.classes()) {
        const auto [owner, isNew] = colourOwner.emplace(packRgb(c.color), c.name);
        if (!isNew)
            throw DataError(project.file().string(), "class '" + c.name + "' has the colour of '" + owner->second +
                                                         "': CVAT tells classes apart by colour (recolour one)");
        labelmap += c.name + ":" + std::to_string(c.color.r) + "," + std::to_string(c.color.g) + "," +
                    std::to_string(c.color.b) + "::\n";
    }
    std::map<std::string, std::string> lists;
    const std::size_t written = forEachLabelled(project, classes, progress, [&](std::size_t i, const cv::Mat& labels) {
        const ImageEntry& entry = project.entry(i);
        const fs::path image = project.imagePath(i);
        placeImage(image, outDir / "JPEGImages" / (nameOf(entry) + image.extension().string()));
        const fs::path mask = outDir / "SegmentationClass" / (nameOf(entry) + ".png");
        fs::create_directories(mask.parent_path());
        writeImageRgb(mask, colorize(labels, classes.dense), run::Durability::Deferred);
        lists[entry.split == Split::Unassigned ? "default" : toString(entry.split)] += nameOf(entry) + "\n";
    });
    writeText(outDir / "labelmap.txt", labelmap);
    for (const auto& [name, text] : lists)
        writeText(outDir / "ImageSets" / "Segmentation" / (name + ".txt"), text);
    run::syncFolder(outDir);
    return written;
}

}  // namespace formats
}  // namespace segstudio::data
