#pragma once

#include <filesystem>

namespace segstudio::ui::browser {

// Where one project entry's files are, resolved once on the GUI thread so background workers
// (label statistics, thumbnails) never touch the Project itself.
struct ImageSource {
    std::filesystem::path image;
    std::filesystem::path labelMap;
};

}  // namespace segstudio::ui::browser
