#include "RunConfigFile.h"

#include "RunLayout.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace segstudio::run {

namespace {

template <typename T>
std::optional<T> field(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return std::nullopt;
    if constexpr (std::is_same_v<T, bool>) {
        if (!it->is_boolean())
            return std::nullopt;
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!it->is_string())
            return std::nullopt;
    } else if constexpr (std::is_integral_v<T>) {
        if (!it->is_number_integer())
            return std::nullopt;
    } else if (!it->is_number()) {
        return std::nullopt;
    }
    return it->get<T>();
}

}  // namespace

std::optional<RunConfigFile> RunConfigFile::read(const std::filesystem::path& runDir)
{
    std::ifstream in(RunLayout(runDir).configFile());
    if (!in)
        return std::nullopt;
    const nlohmann::json object = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!object.is_object())
        return std::nullopt;
    RunConfigFile config;
    config.model = field<std::string>(object, "model");
    config.epochs = field<int>(object, "epochs");
    config.timeBudgetSeconds = field<double>(object, "timeBudgetSeconds");
    config.batchSize = field<int>(object, "batchSize");
    config.optimizer = field<std::string>(object, "optimizer");
    config.learningRate = field<double>(object, "learningRate");
    config.schedule = field<std::string>(object, "schedule");
    config.classWeighting = field<std::string>(object, "classWeighting");
    config.flip = field<bool>(object, "flip");
    config.translate = field<int>(object, "translate");
    config.colorJitter = field<double>(object, "colorJitter");
    config.valEpochs = field<int>(object, "valEpochs");
    config.classes = field<int>(object, "classes");
    config.trainPack = field<std::string>(object, "trainPack");
    config.valPack = field<std::string>(object, "valPack");
    return config;
}

}  // namespace segstudio::run
