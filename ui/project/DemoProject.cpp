#include "DemoProject.h"

#include "data/project/SyntheticDatasetGenerator.h"

#include <QStandardPaths>

namespace segstudio::ui::project {

QString DemoProject::defaultDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/demo");
}

std::filesystem::path DemoProject::projectFile(const std::filesystem::path& dir)
{
    return dir / (std::string("demo") + data::Project::kFileSuffix);
}

std::filesystem::path DemoProject::ensure(const std::filesystem::path& dir)
{
    const auto file = projectFile(dir);
    std::error_code error;
    // writeProject saves the project file after the images, so its presence means a complete demo.
    if (std::filesystem::exists(file, error))
        return file;
    std::filesystem::create_directories(dir, error);
    data::SyntheticDatasetGenerator(360, 480).writeProject(dir, kImageCount, kSeed, "demo");
    return file;
}

}  // namespace segstudio::ui::project
