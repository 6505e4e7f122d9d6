#include "ImportJob.h"

#include "data/labels/DataError.h"
#include "data/labels/ImageHeader.h"
#include "data/labels/LabelMapIO.h"
#include "data/labels/ParallelBatches.h"
#include "run/AtomicFile.h"

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;

namespace {

// Project files are JSON, whose strings are UTF-8: a file name in another encoding (an old
// Latin-1 "m\xfcnster") cannot be named in one. Well-formed UTF-8 as RFC 3629 (and nlohmann's
// writer) define it: no overlong forms, no surrogates, nothing past U+10FFFF.
bool isValidUtf8(const std::string& text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t length = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >> 4) == 0xE ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
        if (length == 0 || i + length > text.size())
            return false;
        const auto second = static_cast<unsigned char>(text[i + (length > 1 ? 1 : 0)]);
        if ((c == 0xE0 && second < 0xA0) || (c == 0xED && second > 0x9F) || (c == 0xF0 && second < 0x90) ||
            (c == 0xF4 && second > 0x8F))
            return false;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2)
                return false;
        i += length;
    }
    return true;
}

}  // namespace

ImportJob::ImportJob(const fs::path& projectFile, const ClassSchema& schema, const ImportProgress& progress)
    : m_project(fs::absolute(projectFile), schema, labelFolderOf(projectFile)),
      m_staging(m_project.root() / ("." + labelFolderOf(projectFile) + ".partial")),
      m_progress(progress),
      m_claim(m_project.file())
{
}

std::string ImportJob::labelFolderOf(const fs::path& projectFile)
{
    return projectFile.stem().string() + ".labels";
}

void ImportJob::claim()
{
    if (m_claimed)
        return;
    m_created.create(m_project.root());
    claimProjectFile();
    checkLabelFolderIsFree();
    m_claimed = true;
}

Project ImportJob::run(const std::vector<ImportItem>& items, const LabelsOf& labelsOf)
{
    claim();
    prepareStaging();
    try {
        // The project starts empty: item n is entry n.
        for (const ImportItem& item : items)
            addEntry(item);
        std::vector<char> labelled(items.size(), 0);
        ParallelBatches::run(
            items.size(), [&](std::size_t n) { labelled[n] = convertLabels(items[n], n, labelsOf); },
            [&](std::size_t n) {
                if (labelled[n])
                    m_project.setStatus(n, LabelStatus::Labelled);
                if (m_progress && !m_progress(n + 1, items.size()))
                    throw ImportCancelled();
            });
        publish();
    } catch (...) {
        std::error_code error;
        fs::remove_all(m_staging, error);
        if (m_labelFolderPublished)
            fs::remove_all(m_project.labelRoot(), error);  // written by this import, named by no project
        throw;
    }
    m_created.keep();
    return m_project;
}

Project ImportJob::run(const std::vector<ImportFilePair>& pairs, const ReadLabelFile& readLabels)
{
    std::vector<ImportItem> items;
    items.reserve(pairs.size());
    for (const ImportFilePair& pair : pairs) {
        if (!pair.labels.empty() && !fs::exists(pair.labels))
            throw DataError(pair.labels.string(), "label map not found (listed for " + pair.image.string() + ")");
        items.push_back({pair.image, pair.split, !pair.labels.empty(), {}});
    }
    return run(items, [&](std::size_t n, cv::Size size) { return readLabels(pairs[n].labels, size); });
}

void ImportJob::claimProjectFile()
{
    using Result = ProjectLock::Result;
    const Result claimed = m_claim.acquire();
    const std::string file = m_project.file().string();
    if (claimed == Result::HeldByOther) {
        throw DataError(file, "is being written by another import or is open in SegStudio (" + m_claim.holderText() + ")");
    }
    if (claimed == Result::NotWritable)
        throw DataError(file, "cannot be written: " + m_claim.failure());
    std::error_code error;
    if (fs::exists(m_project.file(), error))
        throw DataError(file, "exists already; import never overwrites a project (choose another file)");
}

// The label folder must be new or empty: whatever is in it belongs to someone else, unless it is
// what an interrupted import of this same project file left.
void ImportJob::checkLabelFolderIsFree() const
{
    const fs::path folder = m_project.labelRoot();
    std::error_code error;
    if (!fs::exists(fs::symlink_status(folder, error)))
        return;
    if (!fs::is_directory(folder, error))
        throw DataError(folder.string(), "is a file of yours, not a label folder: an import never replaces it; "
                                         "choose another project name, or move it away");
    if (isMarkedFor(folder, m_project.file())) {
        fs::remove_all(folder, error);
        if (error)
            throw DataError(folder.string(), "cannot clear what an interrupted import left: " + error.message());
        return;
    }
    const auto count = std::distance(fs::directory_iterator(folder, error), fs::directory_iterator());
    if (count > 0)
        throw DataError(folder.string(), "holds " + std::to_string(count) +
                                             " file(s) this import did not write (labels of another project?); "
                                             "choose another project name, or move them away");
}

bool ImportJob::isMarkedFor(const fs::path& folder, const fs::path& projectFile)
{
    std::error_code error;
    if (!fs::is_regular_file(folder / kMarker, error))
        return false;
    try {
        return run::readFile(folder / kMarker) == markerText(projectFile);
    } catch (const std::exception&) {
        return false;
    }
}

std::string ImportJob::markerText(const fs::path& projectFile) { return projectFile.filename().string() + "\n"; }

// Label maps are written into a hidden folder beside the label folder and moved into place in one
// rename when all are durable: an import killed half-way (kill -9, power) leaves no label folder
// to refuse the next try, only this folder, which no project names and the next import of the
// same project file clears. Its marker names the project file it is for.
void ImportJob::prepareStaging()
{
    std::error_code error;
    fs::remove_all(m_staging, error);
    fs::create_directories(m_staging, error);
    if (error)
        throw DataError(m_staging.string(), "cannot create the import's label folder: " + error.message());
    run::writeFileAtomically(m_staging / kMarker, markerText(m_project.file()), run::Durability::Staged);
}

void ImportJob::publishStaging()
{
    run::syncFolder(m_staging);  // all label maps durable before the folder gets its name
    const fs::path folder = m_project.labelRoot();
    std::error_code error;
    fs::remove(folder, error);  // empty, or absent (checked before the import began)
    fs::rename(m_staging, folder, error);
    if (error)
        throw DataError(folder.string(), "cannot move the imported label maps into place: " + error.message());
    m_labelFolderPublished = true;
    run::syncFolder(m_project.root());  // the rename durable before the project names the folder
}

// The label folder, then the project file that names it, then the marker goes: until the marker
// is gone the folder is known as this import's, and a retry or the next import clears it.
void ImportJob::publish()
{
    publishStaging();
    m_project.save();
    std::error_code error;
    fs::remove(m_project.labelRoot() / kMarker, error);
}

void ImportJob::addEntry(const ImportItem& item)
{
    if (!fs::exists(item.image))
        throw DataError(item.image.string(), "image not found");
    if (!isValidUtf8(fs::absolute(item.image).string()))
        throw DataError(item.image.string(), "the file name is not valid UTF-8, and a project file can only name "
                                             "UTF-8 paths: rename it (e.g. convmv -f latin1 -t utf8)");
    // Items are paths as the caller gave them (relative to the working directory, from the CLI);
    // the project reads a relative path as relative to its own folder.
    m_project.addImage(fs::absolute(item.image), item.split);
}

// Runs on a worker thread: touches only its own entry's files.
bool ImportJob::convertLabels(const ImportItem& item, std::size_t index, const LabelsOf& labelsOf) const
{
    // The header of every image, labelled or not: a 0-byte or non-image ".png" is refused now,
    // naming it, not when the editor or the packer first opens it.
    const cv::Size size = item.size.empty() ? readImageSize(item.image) : item.size;
    if (!item.hasLabels)
        return false;
    const cv::Mat labels = labelsOf(index, size);
    if (labels.empty())
        return false;
    double lowest = kUnlabelled;
    cv::minMaxLoc(labels, &lowest);  // no temporary mask, unlike countNonZero(labels != 255)
    if (lowest >= kUnlabelled)
        return false;
    writeLabelMap(m_staging / m_project.entry(index).labelMap, labels, m_project.schema(), run::Durability::Staged);
    return true;
}

}  // namespace formats
}  // namespace segstudio::data
