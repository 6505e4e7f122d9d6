#include "DatasetImporter.h"

#include "data/labels/ImageIO.h"

#include "data/labels/DataError.h"
#include "data/labels/ImageFiles.h"
#include "ImportJob.h"
#include "data/labels/LabelMapIO.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;

namespace {

// SegNet's lists hold absolute paths of the authors' machine (/SegNet/CamVid/train/x.png): when a
// listed path does not exist, its last two components (folder/file) are tried under the dataset.
fs::path resolveListedPath(const fs::path& datasetDir, const std::string& listed)
{
    const fs::path direct = datasetDir / listed;
    if (fs::exists(direct) || fs::path(listed).is_relative())
        return direct;
    const fs::path path(listed);
    return datasetDir / path.parent_path().filename() / path.filename();
}

std::vector<ImportFilePair> readPairList(const fs::path& datasetDir, const fs::path& listFile, Split split)
{
    std::ifstream stream(listFile);
    if (!stream)
        throw DataError(listFile.string(), "cannot read the pair list");
    std::vector<ImportFilePair> pairs;
    std::string line;
    for (int number = 1; std::getline(stream, line); ++number) {
        std::istringstream fields(line);
        std::string image, labels, extra;
        if (!(fields >> image))
            continue;  // blank line
        if (!(fields >> labels) || (fields >> extra))
            throw DataError(listFile.string(), "line " + std::to_string(number) + " must be 'IMAGE ANNOTATION'");
        pairs.push_back({resolveListedPath(datasetDir, image), resolveListedPath(datasetDir, labels), split});
    }
    return pairs;
}

std::vector<ImportFilePair> pairFolders(const fs::path& imageDir, const fs::path& labelDir, Split split)
{
    std::vector<ImportFilePair> pairs;
    for (const fs::path& image : imageFilesIn(imageDir, false)) {
        const fs::path labels = labelDir / (image.stem().string() + ".png");
        if (!fs::exists(labels))
            throw DataError(image.string(), "has no annotation (expected " + labels.string() + ")");
        pairs.push_back({image, labels, split});
    }
    return pairs;
}

std::vector<ImportFilePair> segNetPairs(const fs::path& datasetDir)
{
    const std::pair<const char*, Split> splits[] = {{"train", Split::Train}, {"val", Split::Val}, {"test", Split::Test}};
    std::vector<ImportFilePair> pairs;
    for (const auto& [name, split] : splits) {
        const fs::path list = datasetDir / (std::string(name) + ".txt");
        const fs::path images = datasetDir / name;
        const fs::path annotations = datasetDir / (std::string(name) + "annot");
        std::vector<ImportFilePair> found;
        if (fs::exists(list))
            found = readPairList(datasetDir, list, split);
        else if (fs::is_directory(images) && fs::is_directory(annotations))
            found = pairFolders(images, annotations, split);
        pairs.insert(pairs.end(), found.begin(), found.end());
    }
    if (pairs.empty())
        throw DataError(datasetDir.string(), "no SegNet layout found (expected train.txt or train/ with trainannot/)");
    return pairs;
}

}  // namespace

Project DatasetImporter::importSegNetLayout(const fs::path& datasetDir, const fs::path& projectFile,
                                            const ClassSchema& schema, int voidValue, const ImportProgress& progress)
{
    const std::vector<ImportFilePair> pairs = segNetPairs(datasetDir);
    return ImportJob(projectFile, schema, progress).run(pairs, [&](const fs::path& labels, cv::Size size) {
        return readLabelMap(labels, schema, size, voidValue);
    });
}

Project DatasetImporter::importIndexPngs(const fs::path& imageDir, const fs::path& labelDir, const fs::path& projectFile,
                                         const ClassSchema& schema, int voidValue, const ImportProgress& progress)
{
    if (!fs::is_directory(imageDir))
        throw DataError(imageDir.string(), "is not a folder");
    const std::vector<ImportFilePair> pairs = pairFolders(imageDir, labelDir, Split::Unassigned);
    if (pairs.empty())
        throw DataError(imageDir.string(), "contains no images");
    return ImportJob(projectFile, schema, progress).run(pairs, [&](const fs::path& labels, cv::Size size) {
        return readLabelMap(labels, schema, size, voidValue);
    });
}

Project DatasetImporter::importValueMappedPngs(const fs::path& imageDir, const fs::path& labelDir, const fs::path& projectFile,
                                               const ValueMap& values, const ImportProgress& progress)
{
    if (!fs::is_directory(imageDir))
        throw DataError(imageDir.string(), "is not a folder");
    const std::vector<ImportFilePair> pairs = pairFolders(imageDir, labelDir, Split::Unassigned);
    if (pairs.empty())
        throw DataError(imageDir.string(), "contains no images");
    return ImportJob(projectFile, values.schema(), progress).run(pairs, [&](const fs::path& labels, cv::Size size) {
        return values.apply(readImageGray(labels, size), labels);
    });
}

Project DatasetImporter::importImageFolder(const fs::path& imageDir, const fs::path& projectFile,
                                           const ClassSchema& schema, const ImportProgress& progress)
{
    if (!fs::is_directory(imageDir))
        throw DataError(imageDir.string(), "is not a folder");
    std::vector<ImportFilePair> pairs;
    for (const fs::path& image : imageFilesIn(imageDir, true))
        pairs.push_back({image, {}, Split::Unassigned});
    if (pairs.empty())
        throw DataError(imageDir.string(), "contains no images (png, jpg, bmp, tif)");
    return ImportJob(projectFile, schema, progress).run(pairs, [](const fs::path&, cv::Size) { return cv::Mat(); });
}

Project DatasetImporter::importColorMasks(const fs::path& imageDir, const fs::path& maskDir, const fs::path& projectFile,
                                          const ClassSchema& schema, const std::vector<Rgb>& voidColors,
                                          const ImportProgress& progress)
{
    std::map<std::uint32_t, std::uint8_t> table = colorTable(schema);
    for (const Rgb& color : voidColors)
        table.emplace(packRgb(color), kUnlabelled);
    std::vector<ImportFilePair> pairs;
    for (const fs::path& image : imageFilesIn(imageDir, false)) {
        const fs::path mask = maskDir / (image.stem().string() + ".png");
        if (!fs::exists(mask))
            throw DataError(image.string(), "has no colour mask (expected " + mask.string() + ")");
        pairs.push_back({image, mask, Split::Unassigned});
    }
    if (pairs.empty())
        throw DataError(imageDir.string(), "contains no images");
    return ImportJob(projectFile, schema, progress).run(pairs, [&](const fs::path& mask, cv::Size size) {
        return readColorMask(mask, table, size);
    });
}

}  // namespace formats
}  // namespace segstudio::data
