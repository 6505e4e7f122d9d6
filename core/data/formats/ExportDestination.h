#pragma once

#include "CreatedFolders.h"
#include "data/project/Project.h"
#include "data/project/ProjectLock.h"

#include <filesystem>
#include <string>

namespace segstudio::data {
inline namespace formats {

// Where an export writes, so that it never touches a file it did not write. The exporter writes
// into a fresh staging folder beside the destination (.<name>.export-partial), and publish()
// renames it into place in one step, with a marker (.segstudio-export.json) listing every file of
// the export. The destination must be new, an empty folder, or an earlier SegStudio export that
// holds only the files its marker lists, each as the export wrote it (the marker keeps their
// fingerprints: a file edited since is the user's) (it is then replaced as a whole); anything else is
// refused before a byte is written, with one line naming it. An export never goes into a folder
// that holds the project's own images, label maps or project file.
// Two exports to one destination: the destination is claimed (flock on <destination>.lock) for
// the export's life, and the second is refused naming the holder.
// Guarantees: the constructor and publish() throw DataError naming the path and the problem; the
//   destructor of an unpublished destination (an error, a cancel) removes the staging folder and
//   the folders it had to create, so a failed export leaves nothing; a staging folder left by a
//   killed export is recognised by its marker (or, killed before the marker was in place, by
//   holding nothing else) and cleared by the next export to that place.
class ExportDestination {
public:
    ExportDestination(const Project& project, const std::filesystem::path& destination, const std::string& format);
    ~ExportDestination();
    ExportDestination(const ExportDestination&) = delete;
    ExportDestination& operator=(const ExportDestination&) = delete;

    // The folder the exporter writes into: a sibling of the destination, so a path written
    // relative to it (labelme's imagePath) is the same relative to the destination.
    const std::filesystem::path& staging() const { return m_staging; }
    void publish();

    static constexpr const char* kMarker = ".segstudio-export.json";

private:
    void claim();
    void checkDestinationIsReplaceable() const;
    void clearStaleStaging() const;
    void writeMarker(bool complete) const;

    std::filesystem::path m_destination;
    std::filesystem::path m_staging;
    std::string m_format;
    std::string m_projectFile;
    CreatedFolders m_created;  // (declared before the claim: its lock file goes first)
    ProjectLock m_claim;
    bool m_published = false;
};

}  // namespace formats
}  // namespace segstudio::data
