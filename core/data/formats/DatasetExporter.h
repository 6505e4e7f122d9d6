#pragma once

#include "DatasetImporter.h"
#include "data/project/Project.h"

#include <filesystem>

namespace segstudio::data {
inline namespace formats {

// Exports the labelled images of a project (entries whose label map exists).
class DatasetExporter {
public:
    // <outDir>/labels/<stem>.png index PNGs + <outDir>/classes.json (+ classes.txt, one name a line).
    static std::size_t exportIndexPngs(const Project& project, const std::filesystem::path& outDir,
                                       const ImportProgress& progress = {});
    // <outDir>/masks/<stem>.png RGB colour masks + classes.json.
    static std::size_t exportColorMasks(const Project& project, const std::filesystem::path& outDir,
                                        const ImportProgress& progress = {});
};

}  // namespace formats
}  // namespace segstudio::data
