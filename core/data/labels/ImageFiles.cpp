#include "ImageFiles.h"

#include <algorithm>
#include <cctype>

namespace segstudio::data {
inline namespace labels {

namespace fs = std::filesystem;

bool isImageFile(const fs::path& path)
{
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return extension == ".png" || extension == ".jpg" || extension == ".jpeg" || extension == ".bmp" || extension == ".tif"
           || extension == ".tiff";
}

std::vector<fs::path> imageFilesIn(const fs::path& dir, bool recursive)
{
    std::vector<fs::path> files;
    auto take = [&](const fs::directory_entry& item) {
        if (item.is_regular_file() && isImageFile(item.path()))
            files.push_back(item.path());
    };
    if (recursive)
        std::for_each(fs::recursive_directory_iterator(dir), fs::recursive_directory_iterator(), take);
    else
        std::for_each(fs::directory_iterator(dir), fs::directory_iterator(), take);
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace labels
}  // namespace segstudio::data
