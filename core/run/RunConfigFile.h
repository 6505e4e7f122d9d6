#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace segstudio::run {

// What a watcher needs from a run's config.json (written by the engine's TrainConfig): the one
// reader of that file outside the engine, so the GUI holds no copy of its key names. Each field
// is empty when the file lacks it (an older run) or holds another type.
// Guarantees: read() never throws; no file or no JSON object gives nullopt.
struct RunConfigFile {
    std::optional<std::string> model;
    std::optional<int> epochs;
    std::optional<double> timeBudgetSeconds;  // 0: the run trains for its epochs
    std::optional<int> batchSize;
    std::optional<std::string> optimizer;
    std::optional<double> learningRate;
    std::optional<std::string> schedule;
    std::optional<std::string> classWeighting;
    std::optional<bool> flip;
    std::optional<int> translate;
    std::optional<double> colorJitter;
    std::optional<int> valEpochs;
    std::optional<int> classes;          // 0: the pack's count
    std::optional<std::string> trainPack;  // where the run's training pack was
    std::optional<std::string> valPack;    // and its validation pack ("" when it had none)

    static std::optional<RunConfigFile> read(const std::filesystem::path& runDir);
};

}  // namespace segstudio::run
