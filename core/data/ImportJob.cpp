#include "ImportJob.h"

#include "DataError.h"
#include "ImageHeader.h"
#include "LabelMapIO.h"
#include "ParallelBatches.h"

namespace segstudio::data {

namespace fs = std::filesystem;

ImportJob::ImportJob(const fs::path& projectFile, const ClassSchema& schema, const ImportProgress& progress)
    : m_project(fs::absolute(projectFile), schema, labelFolderOf(projectFile)),
      m_staging(m_project.root() / ("." + labelFolderOf(projectFile) + ".partial")),
      m_progress(progress)
{
}

std::string ImportJob::labelFolderOf(const fs::path& projectFile)
{
    return projectFile.stem().string() + ".labels";
}

Project ImportJob::run(const std::vector<ImportItem>& items, const LabelsOf& labelsOf)
{
    checkLabelFolderIsFree();
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
        publishStaging();
        m_project.save();
    } catch (...) {
        std::error_code error;
        fs::remove_all(m_staging, error);
        throw;
    }
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

// The label folder must be new or empty: whatever is in it belongs to someone else.
void ImportJob::checkLabelFolderIsFree() const
{
    const fs::path folder = m_project.labelRoot();
    std::error_code error;
    if (!fs::is_directory(folder, error))
        return;
    const auto count = std::distance(fs::directory_iterator(folder, error), fs::directory_iterator());
    if (count > 0)
        throw DataError(folder.string(), "holds " + std::to_string(count) +
                                             " file(s) this import did not write (labels of another project?); "
                                             "choose another project name, or move them away");
}

// Label maps are written into a hidden folder beside the label folder and moved into place in one
// rename when all are durable: an import killed half-way (kill -9, power) leaves no label folder
// to refuse the next try, only this folder, which no project names and the next import of the
// same project file clears.
void ImportJob::prepareStaging()
{
    std::error_code error;
    fs::remove_all(m_staging, error);
    fs::create_directories(m_staging, error);
    if (error)
        throw DataError(m_staging.string(), "cannot create the import's label folder: " + error.message());
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
    run::syncFolder(m_project.root());  // the rename durable before the project names the folder
}

void ImportJob::addEntry(const ImportItem& item)
{
    if (!fs::exists(item.image))
        throw DataError(item.image.string(), "image not found");
    // Items are paths as the caller gave them (relative to the working directory, from the CLI);
    // the project reads a relative path as relative to its own folder.
    m_project.addImage(fs::absolute(item.image), item.split);
}

// Runs on a worker thread: touches only its own entry's files.
bool ImportJob::convertLabels(const ImportItem& item, std::size_t index, const LabelsOf& labelsOf) const
{
    if (!item.hasLabels)
        return false;
    const cv::Size size = item.size.empty() ? readImageSize(item.image) : item.size;
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

}  // namespace segstudio::data
