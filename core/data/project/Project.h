#pragma once

#include "data/labels/ClassSchema.h"
#include "ImageEntry.h"

#include <filesystem>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace segstudio::data {
inline namespace project {

// A labelling project: a versioned JSON file (by convention `*.segstudio`) that lists images by
// path relative to the project folder, their split and label status, the class schema, and the
// folder (inside the project) where one label-map PNG per image lives.
// Guarantees: save() is atomic (temp file + rename); load() refuses, with DataError naming the
// file, a truncated or non-JSON file, a newer format version, duplicate images, and a label-map
// path that would leave the label folder.
// Requirements: not thread-safe; callers share a Project across threads only for reading.
class Project {
public:
    static constexpr int kFormatVersion = 1;
    static constexpr const char* kFileSuffix = ".segstudio";

    Project() = default;
    Project(std::filesystem::path file, ClassSchema schema, std::string labelDir = "labels");

    static Project load(const std::filesystem::path& file);
    void save() const;
    void saveAs(const std::filesystem::path& file);

    const std::filesystem::path& file() const { return m_file; }
    std::filesystem::path root() const { return m_file.parent_path(); }
    std::filesystem::path labelRoot() const { return root() / m_labelDir; }
    const std::string& labelDir() const { return m_labelDir; }

    const ClassSchema& schema() const { return m_schema; }
    void setSchema(ClassSchema schema) { m_schema = std::move(schema); }

    const std::vector<ImageEntry>& entries() const { return m_entries; }
    std::size_t size() const { return m_entries.size(); }
    const ImageEntry& entry(std::size_t index) const { return m_entries.at(index); }
    void setSplit(std::size_t index, Split split) { m_entries.at(index).split = split; }
    void setStatus(std::size_t index, LabelStatus status) { m_entries.at(index).status = status; }
    std::optional<std::size_t> indexOf(const std::string& relativeImage) const;
    std::optional<std::size_t> indexOfPath(const std::filesystem::path& image) const;  // absolute or relative

    // Adds an image (absolute, or relative to the project folder) and returns its index. Its label
    // map is named after the image; throws DataError for a duplicate.
    std::size_t addImage(const std::filesystem::path& image, Split split = Split::Unassigned);
    void removeImage(std::size_t index);
    // Puts an entry back at `index` (undo of a removal): DataError when its image or label map is
    // already in the project.
    void insertEntry(std::size_t index, ImageEntry entry);

    std::filesystem::path imagePath(std::size_t index) const;
    std::filesystem::path labelMapPath(std::size_t index) const;
    std::vector<std::size_t> indicesOf(Split split) const;

    bool operator==(const Project& other) const;

private:
    std::string relativeToRoot(const std::filesystem::path& path) const;
    std::string uniqueLabelMapName(const std::string& relativeImage) const;
    void validateEntry(const ImageEntry& entry, const std::string& file) const;
    void rebuildIndex();


    std::filesystem::path m_file;
    ClassSchema m_schema;
    std::string m_labelDir = "labels";
    std::vector<ImageEntry> m_entries;
    // Lookups derived from m_entries, so adding thousands of images stays linear.
    std::unordered_map<std::string, std::size_t> m_indexOfImage;
    std::unordered_set<std::string> m_labelMapNames;
};

}  // namespace project
}  // namespace segstudio::data
