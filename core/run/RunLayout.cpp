#include "RunLayout.h"

namespace segstudio::run {

std::filesystem::path RunLayout::checkpointToUse() const
{
    std::error_code error;
    return std::filesystem::exists(bestCheckpoint(), error) ? bestCheckpoint() : lastCheckpoint();
}

std::filesystem::path RunLayout::resolveCheckpoint(const std::filesystem::path& fileOrRunDir)
{
    std::error_code error;
    return std::filesystem::is_directory(fileOrRunDir, error) ? RunLayout(fileOrRunDir).checkpointToUse() : fileOrRunDir;
}

bool RunLayout::canResume() const
{
    std::error_code error;
    return std::filesystem::exists(lastCheckpoint(), error);
}

}  // namespace segstudio::run
