#include "RunLayout.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

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

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json firstJsonLine(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return json::parse(line, nullptr, /*allow_exceptions=*/false);
}

// The engine's TrainConfig as written to config.json (keys it always writes).
bool isTrainingConfiguration(const fs::path& file)
{
    std::ifstream in(file);
    const json config = json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!config.is_object())
        return false;
    for (const char* key : {"trainPack", "runDir", "model", "epochs", "batchSize", "learningRate", "cropShare"})
        if (!config.contains(key))
            return false;
    return true;
}

// metrics.jsonl begins with the "run" record of the session that wrote it (MetricsRecord).
bool isMetricsLog(const fs::path& file)
{
    const json first = firstJsonLine(file);
    return first.is_object() && first.value("kind", std::string()) == "run" && first.contains("segstudio_version");
}

// What a run killed before its first last.pt leaves in checkpoints/: temporary files, and the
// best.pt of a validation that came first.
bool holdsOnlyAnEarlyRunsCheckpoints(const fs::path& folder)
{
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error))
        if (entry.path().extension() != ".tmp" && entry.path().extension() != ".partial" &&
            entry.path().filename() != "best.pt")
            return false;
    return !error;
}

}  // namespace

std::optional<fs::path> RunLayout::foreignEntry() const
{
    std::error_code error;
    if (!fs::is_directory(m_dir, error))
        return std::nullopt;
    bool runLeftovers = false;
    std::optional<fs::path> log;
    for (const auto& entry : fs::directory_iterator(m_dir, error)) {
        const fs::path& path = entry.path();
        const std::string name = path.filename().string();
        const bool packFile = path.parent_path() == m_dir && (name.rfind("train.pack", 0) == 0 || name.rfind("val.pack", 0) == 0) &&
                              (name == "train.pack" || name == "val.pack" || path.extension() == ".lock" ||
                               path.extension() == ".partial");
        if (packFile || path == lockFile())
            continue;  // the packs the Train dialog put there, or what a killed pack left of them
        if (path == logFile()) {
            log = path;
            continue;
        }
        if (path == checkpointsFolder() && entry.is_directory() && holdsOnlyAnEarlyRunsCheckpoints(path))
            continue;
        if ((path == configFile() && isTrainingConfiguration(path)) || (path == metricsFile() && isMetricsLog(path))) {
            runLeftovers = true;
            continue;
        }
        return path;
    }
    if (log && !runLeftovers)
        return log;  // a log.txt alone is somebody else's
    return std::nullopt;
}

}  // namespace segstudio::run
