#include "RecoveryStore.h"

#include "run/AtomicFile.h"
#include "DataError.h"
#include "LabelMapIO.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>

namespace segstudio::data {

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

std::vector<RecoveryStore::Entry> RecoveryStore::entries() const
{
    std::vector<Entry> found;
    std::error_code error;
    if (!std::filesystem::is_directory(m_folder, error))
        return found;
    for (const auto& item : std::filesystem::directory_iterator(m_folder, error)) {
        if (item.path().extension() != ".json")
            continue;
        try {
            const nlohmann::json note = nlohmann::json::parse(run::readFile(item.path()));
            Entry entry;
            entry.image = note.at("image").get<std::string>();
            entry.labelFile = m_folder / note.at("labels").get<std::string>();
            entry.noteFile = item.path();
            entry.savedAtMs = note.value("savedAtMs", 0LL);
            found.push_back(std::move(entry));
        } catch (const std::exception&) {
            continue;
        }
    }
    return found;
}

std::optional<RecoveryStore::Entry> RecoveryStore::find(const std::string& image) const
{
    for (Entry& entry : entries()) {
        if (entry.image == image)
            return std::move(entry);
    }
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

}  // namespace segstudio::data
