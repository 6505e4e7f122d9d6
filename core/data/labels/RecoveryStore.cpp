#include "RecoveryStore.h"

#include "run/AtomicFile.h"
#include "DataError.h"
#include "LabelMapIO.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <set>

namespace segstudio::data {
inline namespace labels {

RecoveryStore::RecoveryStore(std::filesystem::path projectRoot) : m_folder(std::move(projectRoot) / kFolderName) {}

std::string RecoveryStore::keyOf(const std::string& image) const
{
    // FNV-1a: stable across runs and builds (std::hash is not), and file-name safe.
    std::uint64_t hash = 1469598103934665603ULL;
    for (const unsigned char c : image) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

void RecoveryStore::store(const std::string& image, const cv::Mat& labels, const ClassSchema& schema) const
{
    std::error_code error;
    std::filesystem::create_directories(m_folder, error);
    if (error)
        throw DataError(m_folder.string(), "cannot create the recovery folder: " + error.message());
    const std::string key = keyOf(image);
    // The map first: a note always points at a complete map, never at a half-written one.
    writeLabelMap(m_folder / (key + ".png"), labels, schema);
    const long long now = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    const nlohmann::json note{{"image", image}, {"labels", key + ".png"}, {"savedAtMs", now},
                              {"width", labels.cols}, {"height", labels.rows}};
    run::writeFileAtomically(m_folder / (key + ".json"), note.dump(2));
}

namespace {

long long modifiedMs(const std::filesystem::path& file)
{
    std::error_code error;
    const auto when = std::filesystem::last_write_time(file, error);
    if (error)
        return 0;
    const auto system = std::chrono::time_point_cast<std::chrono::milliseconds>(
        when - std::filesystem::file_time_type::clock::now() + std::chrono::system_clock::now());
    return system.time_since_epoch().count();
}

RecoveryStore::Entry readNote(const std::filesystem::path& noteFile, const std::filesystem::path& folder)
{
    const nlohmann::json note = nlohmann::json::parse(run::readFile(noteFile));
    RecoveryStore::Entry entry;
    entry.image = note.at("image").get<std::string>();
    entry.labelFile = folder / note.at("labels").get<std::string>();
    entry.noteFile = noteFile;
    entry.savedAtMs = note.value("savedAtMs", 0LL);
    return entry;
}

}  // namespace

RecoveryStore::Scan RecoveryStore::scan(const std::vector<std::string>& images) const
{
    Scan scan;
    std::error_code error;
    if (!std::filesystem::is_directory(m_folder, error))
        return scan;
    std::map<std::string, std::string> problems;  // key -> why its note could not be used
    std::vector<std::filesystem::path> maps;
    for (const auto& item : std::filesystem::directory_iterator(m_folder, error)) {
        const std::string key = item.path().stem().string();
        if (item.path().extension() == ".png")
            maps.push_back(item.path());
        if (item.path().extension() != ".json")
            continue;
        try {
            scan.entries.push_back(readNote(item.path(), m_folder));
        } catch (const std::exception& e) {
            problems[key] = item.path().string() + ": unreadable note (" + e.what() + ")";
        }
    }
    std::set<std::filesystem::path> claimed;
    for (const Entry& entry : scan.entries)
        claimed.insert(entry.labelFile);
    std::map<std::string, std::string> imageOfKey;
    for (const std::string& image : images)
        imageOfKey.emplace(keyOf(image), image);
    for (const auto& map : maps) {
        if (claimed.count(map))
            continue;
        const std::string key = map.stem().string();
        const auto image = imageOfKey.find(key);
        if (image != imageOfKey.end()) {
            scan.entries.push_back({image->second, map, m_folder / (key + ".json"), modifiedMs(map)});
            problems.erase(key);
        } else if (!problems.count(key)) {
            problems[key] = map.string() + ": a recovery copy without a note, of no image in this project";
        }
    }
    for (auto& [key, why] : problems)
        scan.unreadable.push_back(why.find(".png:") == std::string::npos && !std::filesystem::exists(m_folder / (key + ".png"))
                                      ? why + "; its label map is missing"
                                      : why);
    return scan;
}

std::optional<RecoveryStore::Entry> RecoveryStore::find(const std::string& image) const
{
    const std::string key = keyOf(image);
    try {
        Entry entry = readNote(m_folder / (key + ".json"), m_folder);
        if (entry.image == image)
            return entry;
    } catch (const std::exception&) {
        // Missing or damaged note: the map alone still holds the work, found by its key below.
    }
    const std::filesystem::path map = m_folder / (key + ".png");
    std::error_code error;
    if (std::filesystem::exists(map, error))
        return Entry{image, map, m_folder / (key + ".json"), modifiedMs(map)};
    return std::nullopt;
}

cv::Mat RecoveryStore::restore(const Entry& entry, const ClassSchema& schema, cv::Size expectedSize) const
{
    if (!std::filesystem::exists(entry.labelFile))
        throw DataError(entry.noteFile.string(), "the recovered label map " + entry.labelFile.filename().string() +
                                                     " is missing");
    return readLabelMap(entry.labelFile, schema, expectedSize);
}

void RecoveryStore::discard(const std::string& image) const
{
    const std::string key = keyOf(image);
    std::error_code error;
    std::filesystem::remove(m_folder / (key + ".json"), error);
    std::filesystem::remove(m_folder / (key + ".png"), error);
    // Leave no empty folder behind in the user's project after the last clean save.
    if (std::filesystem::is_empty(m_folder, error) && !error)
        std::filesystem::remove(m_folder, error);
}

}  // namespace labels
}  // namespace segstudio::data
