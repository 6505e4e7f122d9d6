#include "DatasetImporter.h"

#include "DataError.h"
#include "ImageIO.h"
#include "LabelMapIO.h"
#include "ParallelBatches.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace segstudio::data {

namespace fs = std::filesystem;

namespace {

struct Pair {
    fs::path image;
    fs::path labels;  // empty when the image has no label map
    Split split = Split::Unassigned;
};

bool isImageFile(const fs::path& path)
{
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return extension == ".png" || extension == ".jpg" || extension == ".jpeg" || extension == ".bmp" || extension == ".tif"
           || extension == ".tiff";
}

std::vector<fs::path> imageFilesIn(const fs::path& dir, bool recursive)
{
    std::vector<fs::path> files;
    if (recursive) {
        for (const auto& item : fs::recursive_directory_iterator(dir))
            if (item.is_regular_file() && isImageFile(item.path()))
                files.push_back(item.path());
    } else {
        for (const auto& item : fs::directory_iterator(dir))
            if (item.is_regular_file() && isImageFile(item.path()))
                files.push_back(item.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

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

std::vector<Pair> readPairList(const fs::path& datasetDir, const fs::path& listFile, Split split)
{
    std::ifstream stream(listFile);
    if (!stream)
        throw DataError(listFile.string(), "cannot read the pair list");
    std::vector<Pair> pairs;
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

std::vector<Pair> pairFolders(const fs::path& imageDir, const fs::path& labelDir, Split split)
{
    std::vector<Pair> pairs;
    for (const fs::path& image : imageFilesIn(imageDir, false)) {
        const fs::path labels = labelDir / (image.stem().string() + ".png");
        if (!fs::exists(labels))
            throw DataError(image.string(), "has no annotation (expected " + labels.string() + ")");
        pairs.push_back({image, labels, split});
    }
    return pairs;
}

std::vector<Pair> segNetPairs(const fs::path& datasetDir)
{
    const std::pair<const char*, Split> splits[] = {{"train", Split::Train}, {"val", Split::Val}, {"test", Split::Test}};
    std::vector<Pair> pairs;
    for (const auto& [name, split] : splits) {
        const fs::path list = datasetDir / (std::string(name) + ".txt");
        const fs::path images = datasetDir / name;
        const fs::path annotations = datasetDir / (std::string(name) + "annot");
        std::vector<Pair> found;
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

// Builds the project from pairs; every label map is read, checked and converted first. On error
// or cancel the label maps already written are removed again (and the label folder, when this
// import made it), so nothing half-done stays behind.
// Each imported project owns its label folder, <project name>.labels: two projects made in one
// folder never share label maps, and an import never replaces a file it did not write (a folder
// of that name with files in it is refused before anything is written).
class ImportJob {
public:
    ImportJob(const fs::path& projectFile, const ClassSchema& schema, const ImportProgress& progress)
        : m_project(fs::absolute(projectFile), schema, labelFolderOf(projectFile)), m_progress(progress)
    {
    }

    static std::string labelFolderOf(const fs::path& projectFile) { return projectFile.stem().string() + ".labels"; }

    template <typename ReadLabels>
    Project run(const std::vector<Pair>& pairs, ReadLabels readLabels)
    {
        claimLabelFolder();
        try {
            std::vector<std::size_t> indices;
            for (const Pair& pair : pairs)
                indices.push_back(addEntry(pair));
            std::vector<char> labelled(pairs.size(), 0);
            ParallelBatches::run(
                pairs.size(), [&](std::size_t n) { labelled[n] = convertLabels(pairs[n], indices[n], readLabels); },
                [&](std::size_t n) {
                    if (labelled[n])
                        m_project.setStatus(indices[n], LabelStatus::Labelled);
                    if (m_progress && !m_progress(n + 1, pairs.size()))
                        throw ImportCancelled();
                });
            run::syncFolder(m_project.labelRoot());  // all label maps durable before the project names them
            m_project.save();
        } catch (...) {
            removeWrittenLabelMaps(pairs.size());
            throw;
        }
        return m_project;
    }

private:
    // The label folder must be new or empty: whatever is in it belongs to someone else.
    void claimLabelFolder()
    {
        const fs::path folder = m_project.labelRoot();
        std::error_code error;
        if (fs::is_directory(folder, error)) {
            const auto count = std::distance(fs::directory_iterator(folder, error), fs::directory_iterator());
            if (count > 0)
                throw DataError(folder.string(), "holds " + std::to_string(count) +
                                                     " file(s) this import did not write (labels of another project?); "
                                                     "choose another project name, or move them away");
            return;
        }
        fs::create_directories(folder, error);
        if (error)
            throw DataError(folder.string(), "cannot create the label folder: " + error.message());
        m_madeFolder = true;
    }

    std::size_t addEntry(const Pair& pair)
    {
        if (!fs::exists(pair.image))
            throw DataError(pair.image.string(), "image not found");
        if (!pair.labels.empty() && !fs::exists(pair.labels))
            throw DataError(pair.labels.string(), "label map not found (listed for " + pair.image.string() + ")");
        // The pairs are paths as the caller gave them (relative to the working directory, from the
        // CLI); the project reads a relative path as relative to its own folder.
        return m_project.addImage(fs::absolute(pair.image), pair.split);
    }

    // Runs on a worker thread: touches only its own entry's files.
    template <typename ReadLabels>
    bool convertLabels(const Pair& pair, std::size_t index, ReadLabels readLabels) const
    {
        if (pair.labels.empty())
            return false;
        const cv::Mat image = readImageRgb(pair.image);
        const cv::Mat labels = readLabels(pair.labels, image.size());
        writeLabelMap(m_project.labelMapPath(index), labels, m_project.schema(), run::Durability::Deferred);
        return true;
    }

    // A failed batch may have written maps that were never recorded: remove every entry's map
    // (the label folder was empty when the import began, so all of them are ours).
    void removeWrittenLabelMaps(std::size_t count)
    {
        std::error_code error;
        for (std::size_t i = 0; i < count && i < m_project.size(); ++i)
            fs::remove(m_project.labelMapPath(i), error);
        if (m_madeFolder && fs::is_empty(m_project.labelRoot(), error))
            fs::remove(m_project.labelRoot(), error);
    }

    bool m_madeFolder = false;
    Project m_project;
    const ImportProgress& m_progress;
};

}  // namespace

Project DatasetImporter::importSegNetLayout(const fs::path& datasetDir, const fs::path& projectFile,
                                            const ClassSchema& schema, int voidValue, const ImportProgress& progress)
{
    const std::vector<Pair> pairs = segNetPairs(datasetDir);
    return ImportJob(projectFile, schema, progress).run(pairs, [&](const fs::path& labels, cv::Size size) {
        return readLabelMap(labels, schema, size, voidValue);
    });
}

Project DatasetImporter::importIndexPngs(const fs::path& imageDir, const fs::path& labelDir, const fs::path& projectFile,
                                         const ClassSchema& schema, int voidValue, const ImportProgress& progress)
{
    if (!fs::is_directory(imageDir))
        throw DataError(imageDir.string(), "is not a folder");
    const std::vector<Pair> pairs = pairFolders(imageDir, labelDir, Split::Unassigned);
    if (pairs.empty())
        throw DataError(imageDir.string(), "contains no images");
    return ImportJob(projectFile, schema, progress).run(pairs, [&](const fs::path& labels, cv::Size size) {
        return readLabelMap(labels, schema, size, voidValue);
    });
}

Project DatasetImporter::importImageFolder(const fs::path& imageDir, const fs::path& projectFile,
                                           const ClassSchema& schema, const ImportProgress& progress)
{
    if (!fs::is_directory(imageDir))
        throw DataError(imageDir.string(), "is not a folder");
    std::vector<Pair> pairs;
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
    std::vector<Pair> pairs;
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

}  // namespace segstudio::data
