#include "Commands.h"

#include "engine/runtime/DeviceCatalog.h"
#include "engine/models/ModelCatalog.h"
#include "engine/training/TrainConfig.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace segstudio::cli {

namespace {

void addListCommand(CLI::App& app, int& exitCode, const char* name, const char* help,
                    const std::function<nlohmann::json()>& list, const std::function<std::string(const nlohmann::json&)>& line)
{
    auto json = std::make_shared<bool>(false);
    auto* command = app.add_subcommand(name, help);
    command->add_flag("--json", *json, "one JSON array on stdout (for the GUI and scripts)");
    command->callback([json, list, line, &exitCode] {
        const nlohmann::json items = list();
        if (*json) {
            std::cout << items.dump(2) << std::endl;
        } else {
            for (const auto& item : items)
                std::cout << line(item) << '\n';
        }
        exitCode = kExitOk;
    });
}

}  // namespace

void addCatalogCommands(CLI::App& app, int& exitCode)
{
    addListCommand(
        app, exitCode, "models", "list the models train --model accepts",
        [] {
            nlohmann::json items = nlohmann::json::array();
            for (const auto& model : engine::availableModels())
                items.push_back({{"name", model.name}, {"description", model.description},
                                 {"default", model.name == engine::TrainConfig{}.model}});
            return items;
        },
        [](const nlohmann::json& item) {
            return item.at("name").get<std::string>() + "  " + item.at("description").get<std::string>() +
                   (item.value("default", false) ? "  (default)" : "");
        });
    addListCommand(
        app, exitCode, "devices", "list the devices train --device accepts (cpu, each GPU)",
        [] {
            nlohmann::json items = nlohmann::json::array();
            for (const auto& device : engine::availableDevices())
                items.push_back({{"name", device.name}, {"description", device.description}, {"memory_bytes", device.memoryBytes}});
            return items;
        },
        [](const nlohmann::json& item) {
            const double gib = double(item.at("memory_bytes").get<std::uint64_t>()) / double(1ull << 30);
            return item.at("name").get<std::string>() + "  " + item.at("description").get<std::string>() + ", " +
                   std::to_string(int(gib + 0.5)) + " GiB";
        });
}

}  // namespace segstudio::cli
