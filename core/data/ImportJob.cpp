#include "ImportJob.h"

#include "DataError.h"
#include "ImageHeader.h"
#include "LabelMapIO.h"
#include "ParallelBatches.h"

namespace segstudio::data {

namespace fs = std::filesystem;

ImportJob::ImportJob(const fs::path& projectFile, const ClassSchema& schema, const ImportProgress& progress)
    : m_project(fs::absolute(projectFile), schema, labelFolderOf(projectFile)), m_progress(progress)
{
}

std::string ImportJob::labelFolderOf(const fs::path& projectFile)
{
    return projectFile.stem().string() + ".labels";
}

Project ImportJob::run(const std::vector<ImportItem>& items, const LabelsOf& labelsOf)
{
    claimLabelFolder();
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
        run::syncFolder(m_project.labelRoot());  // all label maps durable before the project names them
        m_project.save();
    } catch (...) {
        removeWrittenLabelMaps(items.size());
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
void ImportJob::claimLabelFolder()
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
    if (labels.empty() || cv::countNonZero(labels != kUnlabelled) == 0)
        return false;
    writeLabelMap(m_project.labelMapPath(index), labels, m_project.schema(), run::Durability::Deferred);
    return true;
}

// A failed batch may have written maps that were never recorded: remove every entry's map (the
// label folder was empty when the import began, so all of them are ours).
void ImportJob::removeWrittenLabelMaps(std::size_t count)
{
    std::error_code error;
    for (std::size_t i = 0; i < count && i < m_project.size(); ++i)
        fs::remove(m_project.labelMapPath(i), error);
    if (m_madeFolder && fs::is_empty(m_project.labelRoot(), error))
        fs::remove(m_project.labelRoot(), error);
}

}  // namespace segstudio::data
