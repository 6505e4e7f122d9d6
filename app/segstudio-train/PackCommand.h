#pragma once

#include <filesystem>

namespace segstudio::data {
inline namespace project { class Project; }
inline namespace project { enum class Split; }
}

namespace segstudio::cli {

// Packs one split of a project with a progress line on stdout; shared by `pack` and `demo`.
std::size_t packSplit(const data::Project& project, data::Split split, const std::filesystem::path& out, int height,
                      int width, bool labelledOnly);

}  // namespace segstudio::cli
