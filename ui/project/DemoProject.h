#pragma once

#include <QString>
#include <filesystem>

namespace segstudio::ui::project {

// The demo project: synthetic street scenes (data::SyntheticDatasetGenerator) written once into a
// folder and reused afterwards, so "Open the demo project" works on a machine with no dataset.
class DemoProject {
public:
    static constexpr std::size_t kImageCount = 24;
    static constexpr std::uint64_t kSeed = 1;

    static QString defaultDir();  // <AppLocalDataLocation>/demo
    static std::filesystem::path projectFile(const std::filesystem::path& dir);

    // Returns the project file, generating the demo first when it is absent. Slow the first time
    // (a second or two): callers on the GUI thread run it through TaskRunner. Throws DataError.
    static std::filesystem::path ensure(const std::filesystem::path& dir);
};

}  // namespace segstudio::ui::project
