#include "ProjectFolders.h"

#include "Project.h"
#include "data/labels/DataError.h"

#include <algorithm>
#include <iterator>

namespace segstudio::data {
inline namespace project {

namespace fs = std::filesystem;

bool isWithinFolder(const fs::path& path, const fs::path& folder)
{
    std::error_code error;
    const fs::path p = fs::weakly_canonical(fs::absolute(path), error);
    const fs::path f = fs::weakly_canonical(fs::absolute(folder), error);
    auto [end, rest] = std::mismatch(f.begin(), f.end(), p.begin(), p.end());
    (void)rest;
    return end == f.end() || (std::next(end) == f.end() && end->empty());  // (a trailing "/" of f)
}

void refuseProjectFolders(const Project& project, const fs::path& destination, const std::string& ownFolder)
{
    const auto refuse = [&](const std::string& why) { throw DataError(destination.string(), why + ": " + ownFolder); };
    if (isWithinFolder(project.file(), destination))
        refuse("holds the project " + project.file().string());
    std::error_code error;
    if (fs::equivalent(project.labelRoot(), destination, error))
        refuse("is the project's label folder");
    if (isWithinFolder(project.labelRoot(), destination))
        refuse("holds the project's label folder " + project.labelRoot().string());
    if (isWithinFolder(destination, project.labelRoot()))
        refuse("is inside the project's label folder " + project.labelRoot().string());
    for (std::size_t i = 0; i < project.size(); ++i)
        if (isWithinFolder(project.imagePath(i), destination))
            refuse("holds the project's image " + project.imagePath(i).string());
}

}  // namespace project
}  // namespace segstudio::data
