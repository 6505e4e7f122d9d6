#include "CocoImporter.h"

#include "CocoPolygonRle.h"
#include "CocoRle.h"
#include "data/labels/DataError.h"
#include "data/labels/DistinctColor.h"
#include "data/labels/ImageHeader.h"
#include "ImportJob.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct CocoImage {
    fs::path file;
    cv::Size size;
    std::vector<const json*> annotations;  // instances: the records drawn on it, largest first
    const json* panoptic = nullptr;        // panoptic: its record
    std::size_t recordNumber = 0;
};

class CocoFile {
public:
    explicit CocoFile(const CocoImportRequest& request) : m_request(request), m_name(request.annotations.string())
    {
        m_json = parse();
        readCategories();
        readImages();
        if (m_json.contains("annotations"))
            readAnnotations();
    }

    ClassSchema schema() const { return m_schema; }
    const std::vector<CocoImage>& images() const { return m_images; }

    cv::Mat labelsOf(const CocoImage& image) const
    {
        const cv::Size onDisk = readImageSize(image.file);
        if (onDisk != image.size)
            fail("image " + std::to_string(image.recordNumber), image.file.string() + " is " + sizeText(onDisk) +
                                                                     ", the file says " + sizeText(image.size));
        cv::Mat labels(image.size, CV_8UC1, cv::Scalar(m_background));
        if (image.panoptic)
            paintPanoptic(*image.panoptic, labels);
        for (const json* annotation : image.annotations)
            paintAnnotation(*annotation, labels);
        return labels;
    }

private:
    [[noreturn]] void fail(const std::string& record, const std::string& problem) const
    {
        throw DataError(m_name, record + ": " + problem);
    }

    static std::string sizeText(cv::Size size) { return std::to_string(size.width) + "x" + std::to_string(size.height); }

    json parse() const
    {
        const std::string text = run::readFile(m_request.annotations);  // FileError names a missing file
        try {
            return json::parse(text);
        } catch (const json::parse_error& error) {
            throw DataError(m_name, std::string("not valid JSON (truncated?): ") + error.what());
        }
    }

    const json& arrayField(const json& object, const char* key, const std::string& record) const
    {
        if (!object.is_object() || !object.contains(key) || !object[key].is_array())
            fail(record, std::string("no '") + key + "' list");
        return object[key];
    }

    void readCategories()
    {
        const json& categories = arrayField(m_json, "categories", "the file");
        std::vector<std::pair<long long, const json*>> byId;
        for (std::size_t i = 0; i < categories.size(); ++i) {
            const json& category = categories[i];
            if (!category.is_object() || !category.contains("id") || !category["id"].is_number_integer() ||
                !category.contains("name") || !category["name"].is_string())
                fail("category " + std::to_string(i), "needs an integer 'id' and a 'name'");
            byId.emplace_back(category["id"].get<long long>(), &category);
        }
        std::sort(byId.begin(), byId.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<LabelClass> classes;
        std::vector<Rgb> taken;
        auto add = [&](const std::string& name, std::optional<Rgb> color) {
            const Rgb chosen = color ? *color : distinctColor(taken);
            taken.push_back(chosen);
            classes.push_back({int(classes.size()), name, chosen, ""});
        };
        if (!m_request.backgroundClass.empty()) {
            add(m_request.backgroundClass, Rgb{0, 0, 0});
            m_background = 0;
        }
        for (const auto& [id, category] : byId) {
            if (m_classOf.count(id))
                fail("category id " + std::to_string(id), "appears twice");
            if (classes.size() >= kUnlabelled)
                fail("the file", "has more than 255 categories (a label map holds 255 classes)");
            std::optional<Rgb> color;
            inRecord("category id " + std::to_string(id), [&] { color = colorOf(*category); });
            m_classOf[id] = std::uint8_t(classes.size());
            add((*category)["name"].get<std::string>(), color);
        }
        if (classes.empty())
            fail("the file", "has no categories");
        m_schema = ClassSchema(classes);
    }

    static std::optional<Rgb> colorOf(const json& category)
    {
        std::optional<Rgb> color;
        if (category.contains("color") && category["color"].is_array() && category["color"].size() == 3) {
            const auto& c = category["color"];
            color = Rgb{std::uint8_t(c[0].get<int>()), std::uint8_t(c[1].get<int>()), std::uint8_t(c[2].get<int>())};
        }
        return color;
    }

    void readImages()
    {
        const json& images = arrayField(m_json, "images", "the file");
        m_images.reserve(images.size());
        for (std::size_t i = 0; i < images.size(); ++i) {
            const std::string record = "image " + std::to_string(i);
            inRecord(record, [&] { readImage(images[i], record, i); });
        }
    }

    void readImage(const json& image, const std::string& record, std::size_t i)
    {
        if (!image.contains("id") || !image.contains("file_name") || !image.contains("width") || !image.contains("height"))
            fail(record, "needs 'id', 'file_name', 'width' and 'height'");
        CocoImage entry;
        entry.file = m_request.images / image["file_name"].get<std::string>();
        entry.size = cv::Size(image["width"].get<int>(), image["height"].get<int>());
        entry.recordNumber = i;
        if (entry.size.width <= 0 || entry.size.height <= 0)
            fail(record, "has no size");
        if (!fs::exists(entry.file))
            fail(record, "image not found: " + entry.file.string());
        if (!m_imageOf.emplace(image["id"].get<long long>(), m_images.size()).second)
            fail(record, "its id appears twice");
        m_images.push_back(entry);
    }

    // A field of the wrong type (a string where a number belongs) is named with its record.
    template <typename Read>
    void inRecord(const std::string& record, Read read) const
    {
        try {
            read();
        } catch (const json::exception& error) {
            fail(record, error.what());
        }
    }

    void readAnnotations()
    {
        const json& annotations = arrayField(m_json, "annotations", "the file");
        std::vector<std::vector<std::pair<double, const json*>>> perImage(m_images.size());
        for (std::size_t i = 0; i < annotations.size(); ++i) {
            const std::string record = "annotation " + std::to_string(i);
            inRecord(record, [&] { readAnnotation(annotations[i], record, perImage); });
        }
        for (std::size_t n = 0; n < m_images.size(); ++n) {
            auto& list = perImage[n];
            // Larger first, so the smaller is drawn over it; equal areas keep the file's order.
            std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
            for (const auto& [area, annotation] : list)
                m_images[n].annotations.push_back(annotation);
        }
    }

    void readAnnotation(const json& annotation, const std::string& record,
                        std::vector<std::vector<std::pair<double, const json*>>>& perImage)
    {
        const CocoImage& image = imageOf(annotation, record);
        const std::size_t index = std::size_t(&image - m_images.data());
        if (annotation.contains("segments_info")) {
            readPanoptic(annotation, record, index);
            return;
        }
        classOf(annotation, record);  // a known category
        checkSegmentation(annotation, record, image.size);
        const double area = annotation.contains("area") ? annotation["area"].get<double>() : 0.0;
        perImage[index].emplace_back(area, &annotation);
    }

    const CocoImage& imageOf(const json& annotation, const std::string& record) const
    {
        if (!annotation.is_object() || !annotation.contains("image_id"))
            fail(record, "has no 'image_id'");
        const auto found = m_imageOf.find(annotation["image_id"].get<long long>());
        if (found == m_imageOf.end())
            fail(record, "unknown image id " + annotation["image_id"].dump());
        return m_images[found->second];
    }

    std::uint8_t classOf(const json& holder, const std::string& record) const
    {
        if (!holder.contains("category_id"))
            fail(record, "has no 'category_id'");
        const auto found = m_classOf.find(holder["category_id"].get<long long>());
        if (found == m_classOf.end())
            fail(record, "unknown category id " + holder["category_id"].dump());
        return found->second;
    }

    // Everything a worker would otherwise throw is checked here, on one thread, in file order.
    void checkSegmentation(const json& annotation, const std::string& record, cv::Size size) const
    {
        if (!annotation.contains("segmentation"))
            fail(record, "has no 'segmentation'");
        const json& segmentation = annotation["segmentation"];
        if (segmentation.is_array()) {
            for (const json& polygon : segmentation)
                checkPolygon(polygon, record, size);
            return;
        }
        if (!segmentation.is_object() || !segmentation.contains("counts") || !segmentation.contains("size"))
            fail(record, "segmentation is neither polygons nor RLE {size, counts}");
        const json& rleSize = segmentation["size"];
        if (!rleSize.is_array() || rleSize.size() != 2 || rleSize[0].get<int>() != size.height || rleSize[1].get<int>() != size.width)
            fail(record, "RLE size " + rleSize.dump() + " is not the image's [" + std::to_string(size.height) + ", " +
                             std::to_string(size.width) + "]");
        std::vector<std::uint32_t> runs;
        try {
            runs = runsOf(segmentation, std::uint64_t(size.area()));
        } catch (const DataError& error) {
            // CocoRle knows no file or record: name both, and the id a user can search the file for.
            fail(record + idText(annotation), error.problem());
        }
        const auto covered = std::accumulate(runs.begin(), runs.end(), 0ull);
        if (covered != std::uint64_t(size.area()))
            fail(record, "RLE runs cover " + std::to_string(covered) + " pixels, the image has " + std::to_string(size.area()));
    }

    void checkPolygon(const json& polygon, const std::string& record, cv::Size size) const
    {
        if (!polygon.is_array() || polygon.size() % 2 != 0)
            fail(record, "a polygon must be a flat list [x1, y1, x2, y2, ...]");
        if (polygon.size() < 6)
            fail(record, "polygon with " + std::to_string(polygon.size() / 2) + " points");
        for (std::size_t k = 0; k < polygon.size(); k += 2) {
            const double x = polygon[k].get<double>(), y = polygon[k + 1].get<double>();
            // COCO's own files reach a pixel past the border now and then; more is a wrong image.
            if (x < -1 || y < -1 || x > size.width + 1 || y > size.height + 1)
                fail(record, "polygon point (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the " +
                                 sizeText(size) + " image");
        }
    }

    // " (id 17)" for an annotation with an integer id, else nothing.
    static std::string idText(const json& annotation)
    {
        if (!annotation.contains("id") || !annotation["id"].is_number_integer())
            return {};
        return " (id " + annotation["id"].dump() + ")";
    }

    // Throws DataError without a file (the caller names it and the record).
    static std::vector<std::uint32_t> runsOf(const json& rle, std::uint64_t pixels)
    {
        const json& counts = rle["counts"];
        if (counts.is_string())
            return CocoRle::decompress(counts.get<std::string>(), pixels);
        if (!counts.is_array())
            throw DataError({}, "RLE counts are neither a string nor a list");
        return counts.get<std::vector<std::uint32_t>>();
    }

    void paintAnnotation(const json& annotation, cv::Mat& labels) const
    {
        const std::uint8_t value = m_classOf.at(annotation["category_id"].get<long long>());
        const json& segmentation = annotation["segmentation"];
        if (!segmentation.is_array()) {
            CocoRle::paint(runsOf(segmentation, labels.total()), labels, value);
            return;
        }
        // As pycocotools' annToMask: each polygon rasterised by rleFrPoly, the annotation their union.
        for (const json& polygon : segmentation) {
            std::vector<cv::Point2d> points;
            for (std::size_t k = 0; k < polygon.size(); k += 2)
                points.emplace_back(polygon[k].get<double>(), polygon[k + 1].get<double>());
            CocoRle::paint(CocoPolygonRle::runsOf(points, labels.size()), labels, value);
        }
    }

    void readPanoptic(const json& annotation, const std::string& record, std::size_t index)
    {
        if (!annotation.contains("file_name") || !annotation["segments_info"].is_array())
            fail(record, "a panoptic record needs 'file_name' and a 'segments_info' list");
        for (std::size_t s = 0; s < annotation["segments_info"].size(); ++s)
            classOf(annotation["segments_info"][s], record + ": segment " + std::to_string(s));
        const fs::path masks = panopticFolder();
        if (!fs::exists(masks / annotation["file_name"].get<std::string>()))
            fail(record, "panoptic PNG not found: " + (masks / annotation["file_name"].get<std::string>()).string());
        m_images[index].panoptic = &annotation;
    }

    fs::path panopticFolder() const
    {
        if (!m_request.panopticMasks.empty())
            return m_request.panopticMasks;
        return m_request.annotations.parent_path() / m_request.annotations.stem();
    }

    void paintPanoptic(const json& annotation, cv::Mat& labels) const
    {
        const fs::path file = panopticFolder() / annotation["file_name"].get<std::string>();
        const cv::Mat bgr = cv::imread(file.string(), cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);
        if (bgr.empty())
            throw DataError(file.string(), "not a readable PNG");
        if (bgr.size() != labels.size())
            throw DataError(file.string(), "is " + sizeText(bgr.size()) + ", its image " + sizeText(labels.size()));
        std::unordered_map<std::uint32_t, std::uint8_t> classOfSegment;
        for (const json& segment : annotation["segments_info"])
            classOfSegment[segment["id"].get<std::uint32_t>()] = m_classOf.at(segment["category_id"].get<long long>());
        for (int y = 0; y < bgr.rows; ++y) {
            const auto* pixel = bgr.ptr<cv::Vec3b>(y);
            auto* label = labels.ptr<std::uint8_t>(y);
            for (int x = 0; x < bgr.cols; ++x) {
                const std::uint32_t id = pixel[x][2] + 256u * pixel[x][1] + 65536u * pixel[x][0];
                if (id == 0)
                    continue;  // void
                const auto found = classOfSegment.find(id);
                if (found == classOfSegment.end())
                    throw DataError(file.string(), "segment id " + std::to_string(id) + " at (" + std::to_string(x) +
                                                       ", " + std::to_string(y) + ") is not in its segments_info");
                label[x] = found->second;
            }
        }
    }

    const CocoImportRequest& m_request;
    std::string m_name;
    json m_json;
    ClassSchema m_schema;
    std::uint8_t m_background = kUnlabelled;
    std::map<long long, std::uint8_t> m_classOf;
    std::unordered_map<long long, std::size_t> m_imageOf;
    std::vector<CocoImage> m_images;
};

}  // namespace

Project CocoImporter::import(const CocoImportRequest& request, const fs::path& projectFile, const ImportProgress& progress)
{
    const CocoFile file(request);
    std::vector<ImportItem> items;
    items.reserve(file.images().size());
    for (const CocoImage& image : file.images())
        items.push_back({image.file, request.split, !image.annotations.empty() || image.panoptic, image.size});
    if (items.empty())
        throw DataError(request.annotations.string(), "lists no images");
    return ImportJob(projectFile, file.schema(), progress).run(items, [&](std::size_t n, cv::Size) {
        return file.labelsOf(file.images()[n]);
    });
}

}  // namespace formats
}  // namespace segstudio::data
