#include "FileFingerprint.h"

#include <sys/stat.h>

namespace segstudio::run {

std::string fileFingerprint(const std::filesystem::path& file)
{
    struct stat status {};
    if (::stat(file.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
        return {};
    const long long nanoseconds = static_cast<long long>(status.st_mtim.tv_sec) * 1000000000LL + status.st_mtim.tv_nsec;
    return "size " + std::to_string(static_cast<long long>(status.st_size)) + " mtime " + std::to_string(nanoseconds);
}

}  // namespace segstudio::run
