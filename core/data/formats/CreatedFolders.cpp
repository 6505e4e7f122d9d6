#include "CreatedFolders.h"

#include "data/labels/DataError.h"

#include <algorithm>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;

CreatedFolders::~CreatedFolders()
{
    for (auto folder = m_created.rbegin(); folder != m_created.rend(); ++folder) {
        std::error_code error;
        if (fs::is_empty(*folder, error) && !error)
            fs::remove(*folder, error);
    }
}

void CreatedFolders::create(const fs::path& folder)
{
    fs::path target = fs::absolute(folder).lexically_normal();
    if (target.filename().empty())
        target = target.parent_path();  // "NEW/sub/" is "NEW/sub"
    std::vector<fs::path> missing;
    for (fs::path p = target; !p.empty() && !fs::exists(p); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    std::reverse(missing.begin(), missing.end());
    for (const fs::path& p : missing) {
        std::error_code error;
        if (!fs::create_directory(p, error) && error)
            throw DataError(p.string(), "cannot create the folder: " + error.message());
        m_created.push_back(p);
    }
}

}  // namespace formats
}  // namespace segstudio::data
