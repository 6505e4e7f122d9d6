#pragma once

#include <filesystem>
#include <vector>

namespace segstudio::data {
inline namespace formats {

// The folders a command had to create on the way to its output (NEW/ and NEW/sub/ for
// `-o NEW/sub/x.segstudio`), so that a command that fails leaves none of them behind: it never
// removes a folder that existed before it, nor one that holds anything when it gives up.
// Guarantees: create() throws DataError naming the folder; the destructor removes, deepest
// first, the folders this object created that are still empty, unless keep() was called.
class CreatedFolders {
public:
    CreatedFolders() = default;
    ~CreatedFolders();
    CreatedFolders(const CreatedFolders&) = delete;
    CreatedFolders& operator=(const CreatedFolders&) = delete;

    void create(const std::filesystem::path& folder);  // and every missing parent
    void keep() { m_created.clear(); }                 // the command succeeded

private:
    std::vector<std::filesystem::path> m_created;  // outermost first
};

}  // namespace formats
}  // namespace segstudio::data
