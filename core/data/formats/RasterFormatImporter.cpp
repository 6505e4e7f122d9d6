#include "RasterFormatImporter.h"

#include "CityscapesLabels.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageFiles.h"
#include "ImportJob.h"
#include "data/labels/LabelMapIO.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include <fstream>
#include <sstream>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;

namespace {

// Reads an index PNG of any values and maps them through lookup (256 entries, 255 = unlabelled).
cv::Mat readMappedIndices(const fs::path& file, cv::Size size, const cv::Mat& lookup)
{
    static const ClassSchema anyIndex = [] {
        std::vector<LabelClass> all;
        for (int v = 0; v < 255; ++v)
            all.push_back({v, std::to_string(v), {}, ""});
        return ClassSchema(all);
    }();
    cv::Mat raw = readLabelMap(file, anyIndex, size);  // names the file on a bad PNG or a wrong size
    cv::Mat mapped;
    cv::LUT(raw, lookup, mapped);
    return mapped;
}

// Mapillary's label values are indices into its config's "labels" list. A value past the list's
// end is a label the config does not know (labels of another version, another config): mapped to
// unlabelled it would vanish without a word, so the map is refused naming its first such pixel.
cv::Mat readMapillaryLabels(const fs::path& file, cv::Size size, const cv::Mat& lookup, std::size_t configLabels,
                            const fs::path& config)
{
    static const cv::Mat identity = [] {
        cv::Mat table(1, 256, CV_8U);
        for (int v = 0; v < 256; ++v)
            table.at<std::uint8_t>(v) = std::uint8_t(v);
        return table;
    }();
    const cv::Mat raw = readMappedIndices(file, size, identity);
    if (configLabels < 256) {
        std::size_t unknown = 0;
        int firstX = -1, firstY = -1, firstValue = 0;
        for (int y = 0; y < raw.rows; ++y) {
            const std::uint8_t* row = raw.ptr<std::uint8_t>(y);
            for (int x = 0; x < raw.cols; ++x) {
                if (std::size_t(row[x]) < configLabels)
                    continue;
                if (unknown++ == 0) {
                    firstX = x;
                    firstY = y;
                    firstValue = row[x];
                }
            }
        }
        if (unknown > 0) {
            const std::string known = configLabels == 0
                ? "it lists no labels"
                : "its " + std::to_string(configLabels) + " labels are values 0 to " + std::to_string(configLabels - 1);
            throw DataError(file.string(),
                            "pixel (" + std::to_string(firstX) + ", " + std::to_string(firstY) + ") has label value "
                                + std::to_string(firstValue) + ", which " + config.string() + " does not list (" + known
                                + "); " + std::to_string(unknown)
                                + " pixel(s) of this map have such values: import with the config they were made with");
        }
    }
    cv::Mat mapped;
    cv::LUT(raw, lookup, mapped);
    return mapped;
}

Split splitNamed(const std::string& name)
{
    if (name == "train" || name == "training")
        return Split::Train;
    if (name == "val" || name == "validation")
        return Split::Val;
    if (name == "test" || name == "testing")
        return Split::Test;  // "unassigned", "default" and the rest
    return Split::Unassigned;
}

}  // namespace

Project RasterFormatImporter::importCityscapes(const fs::path& root, const fs::path& projectFile, const ImportProgress& progress)
{
    const fs::path images = root / "leftImg8bit";
    if (!fs::is_directory(images))
        throw DataError(root.string(), "no Cityscapes layout (expected leftImg8bit/ and gtFine/)");
    std::vector<ImportFilePair> found;
    for (const char* split : {"train", "val", "test", "unassigned"}) {
        if (!fs::is_directory(images / split))
            continue;
        for (const fs::path& image : imageFilesIn(images / split, true)) {
            const std::string stem = image.stem().string();
            const std::string suffix = "_leftImg8bit";
            if (stem.size() <= suffix.size() || stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) != 0)
                continue;
            const std::string base = stem.substr(0, stem.size() - suffix.size());
            const fs::path folder = root / "gtFine" / split / image.parent_path().filename();
            fs::path labels = folder / (base + "_gtFine_labelIds.png");
            if (!fs::exists(labels) && fs::exists(folder / (base + "_gtFine_labelTrainIds.png"))) {
                labels = folder / (base + "_gtFine_labelTrainIds.png");
            }
            found.push_back({image, fs::exists(labels) ? labels : fs::path(), splitNamed(split)});
        }
    }
    if (found.empty())
        throw DataError(images.string(), "holds no *_leftImg8bit images under train/, val/ or test/");
    std::vector<LabelClass> classes;
    cv::Mat fromLabelId(1, 256, CV_8U, cv::Scalar(kUnlabelled)), fromTrainId(1, 256, CV_8U, cv::Scalar(kUnlabelled));
    if (fs::exists(root / "classes.json")) {
        // SegStudio's own export: the values are the classes of its table.
        classes = ClassSchema::loadFile((root / "classes.json").string()).classes();
        for (const LabelClass& c : classes)
            fromLabelId.at<std::uint8_t>(c.id) = fromTrainId.at<std::uint8_t>(c.id) = std::uint8_t(c.id);
    } else {
        for (std::size_t t = 0; t < kCityscapesTrainClasses.size(); ++t) {
            const CityscapesClass& c = kCityscapesTrainClasses[t];
            classes.push_back({int(t), c.name, c.color, ""});
            fromLabelId.at<std::uint8_t>(c.labelId) = std::uint8_t(t);
            fromTrainId.at<std::uint8_t>(int(t)) = std::uint8_t(t);
        }
    }
    return ImportJob(projectFile, ClassSchema(classes), progress).run(found, [&](const fs::path& labels, cv::Size size) {
        const bool isTrainIds = labels.filename().string().find("_labelTrainIds") != std::string::npos;
        return readMappedIndices(labels, size, isTrainIds ? fromTrainId : fromLabelId);
    });
}

Project RasterFormatImporter::importMapillary(const fs::path& root, const fs::path& projectFile, const ImportProgress& progress)
{
    const bool v2 = fs::exists(root / "config_v2.0.json");
    const fs::path config = root / (v2 ? "config_v2.0.json" : "config.json");
    nlohmann::json labels;
    try {
        labels = nlohmann::json::parse(run::readFile(config)).at("labels");
    } catch (const nlohmann::json::exception& error) {
        throw DataError(config.string(), std::string("not a Mapillary config (a 'labels' list): ") + error.what());
    }
    std::vector<LabelClass> classes;
    cv::Mat lookup(1, 256, CV_8U, cv::Scalar(kUnlabelled));
    for (std::size_t i = 0; i < labels.size() && i < 256; ++i) {
        const auto& label = labels[i];
        const std::string name = label.value("name", std::string());
        if (name.size() >= 9 && name.compare(name.size() - 9, 9, "unlabeled") == 0)
            continue;
        const auto& color = label.at("color");
        lookup.at<std::uint8_t>(int(i)) = std::uint8_t(classes.size());
        classes.push_back({int(classes.size()), label.value("readable", name),
                           {std::uint8_t(color[0].get<int>()), std::uint8_t(color[1].get<int>()), std::uint8_t(color[2].get<int>())},
                           ""});
    }
    std::vector<ImportFilePair> found;
    for (const char* split : {"training", "validation", "testing"}) {
        const fs::path folder = root / split;
        if (!fs::is_directory(folder / "images"))
            continue;
        fs::path labelDir = folder / (v2 ? "v2.0/labels" : "labels");
        if (!v2 && !fs::is_directory(labelDir))
            labelDir = folder / "v1.2" / "labels";
        for (const fs::path& image : imageFilesIn(folder / "images", false)) {
            const fs::path labelFile = labelDir / (image.stem().string() + ".png");
            found.push_back({image, fs::exists(labelFile) ? labelFile : fs::path(), splitNamed(split)});
        }
    }
    if (found.empty())
        throw DataError(root.string(), "no Mapillary layout (expected training/images/ or validation/images/)");
    return ImportJob(projectFile, ClassSchema(classes), progress).run(found, [&](const fs::path& labelFile, cv::Size size) {
        return readMapillaryLabels(labelFile, size, lookup, labels.size(), config);
    });
}

Project RasterFormatImporter::importCvatMasks(const fs::path& folder, const fs::path& projectFile, const fs::path& imageDir,
                                              const ImportProgress& progress)
{
    const fs::path labelmap = folder / "labelmap.txt";
    std::ifstream stream(labelmap);
    if (!stream)
        throw DataError(labelmap.string(), "not found: not a CVAT segmentation-mask export");
    std::vector<LabelClass> classes;
    std::map<std::uint32_t, std::uint8_t> table;
    std::string line;
    for (int number = 1; std::getline(stream, line); ++number) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream fields(line);
        std::string name, rgb;
        int r = -1, g = -1, b = -1;
        char comma1 = 0, comma2 = 0;
        if (!std::getline(fields, name, ':') || !std::getline(fields, rgb, ':') ||
            !(std::istringstream(rgb) >> r >> comma1 >> g >> comma2 >> b) || comma1 != ',' || comma2 != ',')
            throw DataError(labelmap.string(), "line " + std::to_string(number) + " must be 'name:r,g,b:parts:actions'");
        const Rgb color{std::uint8_t(r), std::uint8_t(g), std::uint8_t(b)};
        if (name == "background") {
            table[packRgb(color)] = kUnlabelled;
            continue;
        }
        table[packRgb(color)] = std::uint8_t(classes.size());
        classes.push_back({int(classes.size()), name, color, ""});
    }
    const fs::path lists = folder / "ImageSets" / "Segmentation";
    if (!fs::is_directory(lists))
        throw DataError(lists.string(), "not found: not a CVAT segmentation-mask export");
    const fs::path images = imageDir.empty() ? folder / "JPEGImages" : imageDir;
    std::vector<ImportFilePair> found;
    for (const auto& list : fs::directory_iterator(lists)) {
        if (list.path().extension() != ".txt")
            continue;
        std::ifstream names(list.path());
        for (std::string name; std::getline(names, name);) {
            if (name.empty())
                continue;
            fs::path image;
            for (const char* extension : {".jpg", ".png", ".jpeg", ".bmp", ".JPG", ".PNG"})
                if (fs::exists(images / (name + extension))) {
                    image = images / (name + extension);
                    break;
                }
            if (image.empty())
                throw DataError(list.path().string(), "image '" + name + "' not found in " + images.string());
            const fs::path mask = folder / "SegmentationClass" / (name + ".png");
            found.push_back({image, fs::exists(mask) ? mask : fs::path(), splitNamed(list.path().stem().string())});
        }
    }
    std::sort(found.begin(), found.end(), [](const ImportFilePair& a, const ImportFilePair& b) { return a.image < b.image; });
    if (found.empty())
        throw DataError(lists.string(), "lists no images");
    return ImportJob(projectFile, ClassSchema(classes), progress).run(found, [&](const fs::path& mask, cv::Size size) {
        return readColorMask(mask, table, size);
    });
}

}  // namespace formats
}  // namespace segstudio::data
