#include "Project.h"

#include "run/AtomicFile.h"
#include "data/labels/DataError.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_set>

namespace segstudio::data {
inline namespace project {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormatName = "segstudio-project";

// A label-map path must stay inside the label folder: relative, and no ".." that climbs out.
bool staysInside(const std::string& relative)
{
    const fs::path path = fs::path(relative).lexically_normal();
    if (relative.empty() || path.is_absolute() || path.has_root_name() || path.empty())
        return false;
    const auto first = path.begin();
    return first != path.end() && first->string() != "..";
}

std::string genericRelative(const fs::path& path) { return path.lexically_normal().generic_string(); }

nlohmann::json parseProjectJson(const fs::path& file)
{
    const std::string text = run::readFile(file);
    if (text.empty())
        throw DataError(file.string(), "the project file is empty");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        throw DataError(file.string(), std::string("not a valid project file (truncated or not JSON): ") + error.what());
    }
}

template <typename T>
T field(const nlohmann::json& json, const char* name, const fs::path& file)
{
    if (!json.contains(name))
        throw DataError(file.string(), std::string("missing field '") + name + "'");
    try {
        return json.at(name).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw DataError(file.string(), std::string("field '") + name + "' has the wrong type");
    }
}

ImageEntry entryFromJson(const nlohmann::json& item, const fs::path& file)
{
    ImageEntry entry;
    entry.image = field<std::string>(item, "image", file);
    entry.labelMap = field<std::string>(item, "labels", file);
    const std::string split = item.value("split", std::string("unassigned"));
    const std::string status = item.value("status", std::string("unlabelled"));
    const auto parsedSplit = splitFromString(split);
    const auto parsedStatus = labelStatusFromString(status);
    if (!parsedSplit)
        throw DataError(file.string(), "image '" + entry.image + "' has an unknown split '" + split + "'");
    if (!parsedStatus)
        throw DataError(file.string(), "image '" + entry.image + "' has an unknown status '" + status + "'");
    entry.split = *parsedSplit;
    entry.status = *parsedStatus;
    return entry;
}

}  // namespace

Project::Project(fs::path file, ClassSchema schema, std::string labelDir)
    : m_file(std::move(file)), m_schema(std::move(schema)), m_labelDir(std::move(labelDir))
{
    if (!staysInside(m_labelDir))
        throw DataError(m_file.string(), "the label folder '" + m_labelDir + "' must be inside the project folder");
}

Project Project::load(const fs::path& file)
{
    const nlohmann::json json = parseProjectJson(file);
    if (!json.is_object() || json.value("format", std::string()) != kFormatName)
        throw DataError(file.string(), "not a SegStudio project (missing \"format\": \"segstudio-project\")");
    const int version = field<int>(json, "version", file);
    if (version > kFormatVersion)
        throw DataError(file.string(), "was written by a newer SegStudio (project format " + std::to_string(version)
                                           + "; this version reads up to " + std::to_string(kFormatVersion)
                                           + "). Update SegStudio to open it.");
    if (version < 1)
        throw DataError(file.string(), "has an invalid format version " + std::to_string(version));

    Project project(file, ClassSchema::fromJson(field<nlohmann::json>(json, "classes", file), file.string()),
                    field<std::string>(json, "labelDir", file));
    const nlohmann::json images = field<nlohmann::json>(json, "images", file);
    if (!images.is_array())
        throw DataError(file.string(), "'images' must be a list");
    std::unordered_set<std::string> seenImages;
    std::unordered_set<std::string> seenLabels;
    project.m_entries.reserve(images.size());
    for (const nlohmann::json& item : images) {
        ImageEntry entry = entryFromJson(item, file);
        project.validateEntry(entry, file.string());
        if (!seenImages.insert(entry.image).second)
            throw DataError(file.string(), "image '" + entry.image + "' is listed twice");
        if (!seenLabels.insert(entry.labelMap).second)
            throw DataError(file.string(), "label map '" + entry.labelMap + "' is used by two images");
        project.m_entries.push_back(std::move(entry));
    }
    project.rebuildIndex();
    return project;
}

void Project::save() const
{
    if (m_file.empty())
        throw DataError({}, "the project has no file name yet");
    nlohmann::json images = nlohmann::json::array();
    for (const ImageEntry& entry : m_entries)
        images.push_back({{"image", entry.image},
                          {"labels", entry.labelMap},
                          {"split", toString(entry.split)},
                          {"status", toString(entry.status)}});
    const nlohmann::json json = {{"format", kFormatName},
                                 {"version", kFormatVersion},
                                 {"labelDir", m_labelDir},
                                 {"classes", m_schema.toJson()},
                                 {"images", images}};
    run::writeFileAtomically(m_file, json.dump(1) + "\n");
}

void Project::saveAs(const fs::path& file)
{
    // Image paths are relative to the project folder: rebase them on the new one.
    const fs::path oldRoot = root();
    for (ImageEntry& entry : m_entries)
        entry.image = genericRelative(fs::absolute(oldRoot / entry.image).lexically_relative(fs::absolute(file).parent_path()));
    m_file = file;
    rebuildIndex();
    save();
}

void Project::rebuildIndex()
{
    m_indexOfImage.clear();
    m_labelMapNames.clear();
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        m_indexOfImage.emplace(m_entries[i].image, i);
        m_labelMapNames.insert(m_entries[i].labelMap);
    }
}

std::optional<std::size_t> Project::indexOf(const std::string& relativeImage) const
{
    const auto it = m_indexOfImage.find(genericRelative(relativeImage));
    return it == m_indexOfImage.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

std::optional<std::size_t> Project::indexOfPath(const fs::path& image) const { return indexOf(relativeToRoot(image)); }

std::string Project::relativeToRoot(const fs::path& path) const
{
    if (path.is_relative())
        return genericRelative(path);
    // A project opened by its bare file name ("camvid.segstudio") has an empty root: the current
    // folder (fs::absolute of an empty path throws).
    const fs::path absoluteRoot = root().empty() ? fs::current_path() : fs::absolute(root());
    return genericRelative(fs::absolute(path).lexically_relative(absoluteRoot));
}

std::string Project::uniqueLabelMapName(const std::string& relativeImage) const
{
    const std::string stem = fs::path(relativeImage).stem().string();
    std::string candidate = stem + ".png";
    for (int n = 2; m_labelMapNames.count(candidate); ++n)
        candidate = stem + "_" + std::to_string(n) + ".png";
    return candidate;
}

std::size_t Project::addImage(const fs::path& image, Split split)
{
    const std::string relative = relativeToRoot(image);
    if (indexOf(relative))
        throw DataError(image.string(), "is already in the project");
    ImageEntry entry;
    entry.image = relative;
    entry.labelMap = uniqueLabelMapName(relative);
    entry.split = split;
    m_indexOfImage.emplace(entry.image, m_entries.size());
    m_labelMapNames.insert(entry.labelMap);
    m_entries.push_back(std::move(entry));
    return m_entries.size() - 1;
}

void Project::removeImage(std::size_t index)
{
    m_entries.erase(m_entries.begin() + std::ptrdiff_t(index));
    rebuildIndex();
}

void Project::insertEntry(std::size_t index, ImageEntry entry)
{
    validateEntry(entry, m_file.string());
    if (indexOf(entry.image))
        throw DataError(entry.image, "is already in the project");
    if (m_labelMapNames.count(entry.labelMap) != 0)
        throw DataError(entry.labelMap, "label map is already used by another image");
    index = std::min(index, m_entries.size());
    m_entries.insert(m_entries.begin() + std::ptrdiff_t(index), std::move(entry));
    rebuildIndex();
}

fs::path Project::imagePath(std::size_t index) const
{
    return (root() / entry(index).image).lexically_normal();
}

fs::path Project::labelMapPath(std::size_t index) const
{
    return (labelRoot() / entry(index).labelMap).lexically_normal();
}

std::vector<std::size_t> Project::indicesOf(Split split) const
{
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].split == split)
            indices.push_back(i);
    return indices;
}

void Project::validateEntry(const ImageEntry& entry, const std::string& file) const
{
    if (entry.image.empty())
        throw DataError(file, "an image entry has an empty path");
    if (!staysInside(entry.labelMap))
        throw DataError(file, "label map path '" + entry.labelMap + "' of image '" + entry.image
                                  + "' would write outside the project's label folder");
}

bool Project::operator==(const Project& other) const
{
    return m_file == other.m_file && m_schema == other.m_schema && m_labelDir == other.m_labelDir
           && m_entries == other.m_entries;
}

}  // namespace project
}  // namespace segstudio::data
