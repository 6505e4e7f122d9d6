#pragma once

#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace models {

// What the ModelRegistry offers, without LibTorch, for --help texts and the UI's model picker.
struct ModelInfo {
    std::string name;
    std::string description;
};

std::vector<ModelInfo> availableModels();

}  // namespace models
}  // namespace segstudio::engine
