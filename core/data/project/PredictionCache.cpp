#include "PredictionCache.h"

#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "OutputFolder.h"
#include "Project.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <system_error>

namespace segstudio::data {
inline namespace project {

namespace fs = std::filesystem;

namespace {
constexpr const char* kStampFile = "stamp.json";

std::vector<std::string> filesIn(const fs::path& folder)
{
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error))
        if (entry.is_regular_file() && entry.path().filename() != kStampFile && entry.path().filename().string()[0] != '.')
            names.push_back(entry.path().filename().string());
    return names;
}
}

PredictionCache::PredictionCache(const fs::path& runDir, fs::path checkpoint, std::string adaptation)
    : m_checkpoint(std::move(checkpoint)), m_folder(runDir / "predictions" / m_checkpoint.stem()),
      m_adaptation(std::move(adaptation))
{
}

std::string PredictionCache::stamp() const
{
    std::error_code error;
    const auto size = fs::file_size(m_checkpoint, error);
    if (error)
        return {};
    const auto modified = fs::last_write_time(m_checkpoint, error);
    if (error)
        return {};
    nlohmann::json stamp{{"checkpoint", m_checkpoint.filename().string()},
                         {"size", size},
                         {"modified", std::int64_t(modified.time_since_epoch().count())}};
    if (!m_adaptation.empty())
        stamp["adaptation"] = m_adaptation;
    return stamp.dump();
}

namespace {

std::optional<nlohmann::json> stampIn(const fs::path& folder)
{
    std::error_code error;
    if (!fs::exists(folder / kStampFile, error))
        return std::nullopt;
    try {
        auto stamp = nlohmann::json::parse(run::readFile(folder / kStampFile));
        if (stamp.is_object())
            return stamp;
    } catch (const run::FileError&) {
    } catch (const nlohmann::json::exception&) {
    }
    return std::nullopt;
}

// Whether the folder's stamp is `now` (empty: no checkpoint), the adaptation each names left out
// when asked.
bool stampIs(const fs::path& folder, const std::string& now, bool ignoringAdaptation)
{
    auto onDisk = stampIn(folder);
    if (now.empty() || !onDisk)
        return false;
    auto expected = nlohmann::json::parse(now);
    if (ignoringAdaptation) {
        onDisk->erase("adaptation");
        expected.erase("adaptation");
    }
    return *onDisk == expected;
}

}  // namespace

bool PredictionCache::isCurrent() const
{
    return stampIs(m_folder, stamp(), /*ignoringAdaptation=*/true);
}

std::string PredictionCache::adaptationInUse() const
{
    const auto onDisk = stampIn(m_folder);
    return onDisk ? onDisk->value("adaptation", std::string()) : std::string();
}

void PredictionCache::prepare() const
{
    const std::string now = stamp();
    if (now.empty())
        throw DataError(m_checkpoint.string(), "no such checkpoint");
    std::error_code error;
    if (stampIs(m_folder, now, /*ignoringAdaptation=*/false)) {
        // A cache filled before predict kept a ledger (OutputFolder) is this run's own: its files
        // are recorded as they are, so predict may replace them like any it wrote.
        if (!fs::exists(m_folder / OutputFolder::kLedger, error))
            OutputFolder(m_folder, nullptr, "predictions").adopt(filesIn(m_folder));
        return;
    }
    fs::remove_all(m_folder, error);
    fs::create_directories(m_folder, error);
    if (error)
        throw DataError(m_folder.string(), "cannot create the prediction folder: " + error.message());
    run::writeFileAtomically(m_folder / kStampFile, now);
}

fs::path PredictionCache::classesFileIn(const fs::path& folder, const std::string& stem) { return folder / (stem + ".png"); }

fs::path PredictionCache::confidenceFileIn(const fs::path& folder, const std::string& stem)
{
    return folder / (stem + "_confidence.png");
}

fs::path PredictionCache::entropyFileIn(const fs::path& folder, const std::string& stem)
{
    return folder / (stem + "_entropy.png");
}

fs::path PredictionCache::scoresFileIn(const fs::path& folder, const std::string& stem)
{
    return folder / (stem + "_scores.png");
}

std::vector<std::string> PredictionCache::entryFileNames(const std::string& stem)
{
    return {scoresFileIn({}, stem).string(), confidenceFileIn({}, stem).string(), entropyFileIn({}, stem).string(),
            classesFileIn({}, stem).string()};
}

void PredictionCache::writeEntry(const fs::path& folder, const std::string& stem, const Entry& entry, const ClassSchema& schema)
{
    if (!entry.scores.empty())
        writeImageGray(scoresFileIn(folder, stem), entry.scores.reshape(1, entry.scores.rows), run::Durability::Deferred);
    writeImageGray(confidenceFileIn(folder, stem), entry.confidence, run::Durability::Deferred);
    writeImageGray(entropyFileIn(folder, stem), entry.entropy, run::Durability::Deferred);
    writeLabelMap(classesFileIn(folder, stem), entry.classes, schema, run::Durability::Deferred);
}

std::string PredictionCache::keyOf(const Project& project, std::size_t index)
{
    return fs::path(project.entry(index).labelMap).stem().string();
}

bool PredictionCache::contains(const std::string& stem) const
{
    std::error_code error;
    return fs::exists(classesFile(stem), error) && fs::exists(confidenceFile(stem), error) &&
           fs::exists(entropyFile(stem), error);
}

std::optional<PredictionCache::Entry> PredictionCache::load(const std::string& stem, const ClassSchema& schema,
                                                            cv::Size imageSize) const
{
    if (!contains(stem) || !isCurrent())
        return std::nullopt;
    return readEntry(m_folder, stem, schema, imageSize);
}

PredictionCache::Entry PredictionCache::readEntry(const fs::path& folder, const std::string& stem, const ClassSchema& schema,
                                                  cv::Size imageSize)
{
    return Entry{readLabelMap(classesFileIn(folder, stem), schema, imageSize),
                 readImageGray(confidenceFileIn(folder, stem), imageSize), readImageGray(entropyFileIn(folder, stem), imageSize),
                 readScores(folder, stem, int(schema.size()))};
}

cv::Mat PredictionCache::readScores(const fs::path& folder, const std::string& stem, int classes)
{
    const fs::path file = scoresFileIn(folder, stem);
    std::error_code error;
    if (!fs::exists(file, error))
        return {};
    const cv::Mat sideBySide = readImageGray(file);
    if (classes <= 0 || classes > CV_CN_MAX || sideBySide.cols % classes != 0)
        throw DataError(file.string(), "is " + std::to_string(sideBySide.cols) + " pixels wide, not a multiple of the " +
                                           std::to_string(classes) + " classes");
    return sideBySide.reshape(classes, sideBySide.rows).clone();
}

}  // namespace project
}  // namespace segstudio::data
