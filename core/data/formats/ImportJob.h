#pragma once

#include "CreatedFolders.h"
#include "DatasetImporter.h"
#include "data/project/Project.h"
#include "data/project/ProjectLock.h"

#include <filesystem>
#include <functional>
#include <opencv2/core.hpp>
#include <vector>

namespace segstudio::data {
inline namespace formats {

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
// of that name with files in it, or a file of that name, is refused before anything is written).
// The project file is claimed for the import's life (its ProjectLock, as an open project is): a
// second import to the same file, or an import into a project open in SegStudio, is refused
// naming the holder, and so is a project file that exists. The label folder and the project file
// come into place as one step: the staging folder carries a marker naming the project file
// (.segstudio-import); it is renamed into place, the project saved, then the marker removed. A
// label folder whose marker names this project file while the file does not exist is what an
// interrupted import left (a kill, a full disk): the next import of that file clears it. A
// failed import removes the folders it created on the way (NEW/ of -o NEW/x.segstudio).
// labelsOf(item, size) runs on worker threads, must touch only that item's inputs and returns the
// map in schema ids (255 = unlabelled) at `size`; a map with no labelled pixel leaves the image
// unlabelled and writes nothing.
class ImportJob {
public:
    using LabelsOf = std::function<cv::Mat(std::size_t item, cv::Size size)>;

    ImportJob(const std::filesystem::path& projectFile, const ClassSchema& schema, const ImportProgress& progress);

    static std::string labelFolderOf(const std::filesystem::path& projectFile);

    // Claims the project file and checks the label folder (run() does it when not done yet):
    // before an importer writes anything of its own beside the project (labelme's images).
    void claim();

    Project run(const std::vector<ImportItem>& items, const LabelsOf& labelsOf);

    // The pairs as items (a listed label file must exist), each label file read by readLabels.
    using ReadLabelFile = std::function<cv::Mat(const std::filesystem::path& labels, cv::Size size)>;
    Project run(const std::vector<ImportFilePair>& pairs, const ReadLabelFile& readLabels);

    static constexpr const char* kMarker = ".segstudio-import";
    // Whether folder carries the marker of an import of projectFile (one that has not finished),
    // and the marker's text for it.
    static bool isMarkedFor(const std::filesystem::path& folder, const std::filesystem::path& projectFile);
    static std::string markerText(const std::filesystem::path& projectFile);

private:
    void claimProjectFile();
    void checkLabelFolderIsFree() const;
    void prepareStaging();
    void publishStaging();
    void publish();
    void addEntry(const ImportItem& item);
    bool convertLabels(const ImportItem& item, std::size_t index, const LabelsOf& labelsOf) const;

    Project m_project;
    std::filesystem::path m_staging;
    const ImportProgress& m_progress;
    CreatedFolders m_created;  // (declared before the claim: its lock file goes first)
    ProjectLock m_claim;
    bool m_labelFolderPublished = false;
    bool m_claimed = false;
};

}  // namespace formats
}  // namespace segstudio::data
