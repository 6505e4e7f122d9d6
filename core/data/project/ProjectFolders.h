#pragma once

#include <filesystem>
#include <string>

namespace segstudio::data {
inline namespace project {
class Project;

// Whether `path` is `folder` or lies inside it, symbolic links resolved where they exist.
bool isWithinFolder(const std::filesystem::path& path, const std::filesystem::path& folder);

// A command's output folder never mixes with the project's own files: throws DataError naming
// `destination` when it holds the project file, its label folder or one of its images, or lies
// inside the label folder. `ownFolder` ends the message ("an export goes into a folder of its own").
void refuseProjectFolders(const Project& project, const std::filesystem::path& destination, const std::string& ownFolder);

}  // namespace project
}  // namespace segstudio::data
