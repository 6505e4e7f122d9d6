#include "Commands.h"

#include <filesystem>

namespace segstudio::cli {

std::string resolveCheckpoint(const std::string& fileOrRunDirectory)
{
    namespace fs = std::filesystem;
    if (!fs::is_directory(fileOrRunDirectory))
        return fileOrRunDirectory;
    const fs::path checkpoints = fs::path(fileOrRunDirectory) / "checkpoints";
    return fs::exists(checkpoints / "best.pt") ? (checkpoints / "best.pt").string() : (checkpoints / "last.pt").string();
}

}  // namespace segstudio::cli
