#pragma once

#include "DatasetImporter.h"
#include "Project.h"

#include <filesystem>
#include <functional>
#include <opencv2/core.hpp>
#include <vector>

namespace segstudio::data {

// One image an importer found, before anything is written.
struct ImportItem {
    std::filesystem::path image;
    Split split = Split::Unassigned;
    bool hasLabels = false;
    cv::Size size;  // from the annotation file when it says; empty: read from the image's header
};

// An image and its label file (empty: unlabelled), for the formats whose labels are files.
struct ImportFilePair {
    std::filesystem::path image;
    std::filesystem::path labels;
    Split split = Split::Unassigned;
};

// Builds the project every importer returns: adds the items, asks for each item's label map on
// all cores and writes it into the project's own label folder as a palette PNG, then saves the
// project. Maps are written into a hidden staging folder that becomes the label folder in one
// rename at the end: on error or cancel it is removed, and after a kill the next import of the
// same project file clears it, so nothing half-done stays in the way.
// Each imported project owns its label folder, <project name>.labels: two projects made in one
// folder never share label maps, and an import never replaces a file it did not write (a folder
// of that name with files in it is refused before anything is written).
// labelsOf(item, size) runs on worker threads, must touch only that item's inputs and returns the
// map in schema ids (255 = unlabelled) at `size`; a map with no labelled pixel leaves the image
// unlabelled and writes nothing.
class ImportJob {
public:
    using LabelsOf = std::function<cv::Mat(std::size_t item, cv::Size size)>;

    ImportJob(const std::filesystem::path& projectFile, const ClassSchema& schema, const ImportProgress& progress);

    static std::string labelFolderOf(const std::filesystem::path& projectFile);

    Project run(const std::vector<ImportItem>& items, const LabelsOf& labelsOf);

    // The pairs as items (a listed label file must exist), each label file read by readLabels.
    using ReadLabelFile = std::function<cv::Mat(const std::filesystem::path& labels, cv::Size size)>;
    Project run(const std::vector<ImportFilePair>& pairs, const ReadLabelFile& readLabels);

private:
    void checkLabelFolderIsFree() const;
    void prepareStaging();
    void publishStaging();
    void addEntry(const ImportItem& item);
    bool convertLabels(const ImportItem& item, std::size_t index, const LabelsOf& labelsOf) const;

    Project m_project;
    std::filesystem::path m_staging;
    const ImportProgress& m_progress;
};

}  // namespace segstudio::data
