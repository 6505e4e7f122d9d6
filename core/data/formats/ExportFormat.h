#pragma once

#include "DatasetImporter.h"
#include "data/project/Project.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace formats {

// Every format a project's labels can be written in, for the CLI's --format and the GUI's
// File > Export menu alike.
enum class ExportFormat { IndexPngs, ColourMasks, Coco, Cityscapes, Labelme, Cvat };

std::string nameOf(ExportFormat format);  // "index-png", "color-masks", "coco", ...
std::optional<ExportFormat> exportFormatNamed(const std::string& name);
std::vector<ExportFormat> allExportFormats();

// What some formats take beyond the project: labelme's polygon tolerance (pixels); COCO's
// background class, left out of the categories and annotations (the ground between objects, as
// `import coco --background` reads it back); empty: every class is exported.
struct ExportOptions {
    double labelmeTolerance = 0.5;
    std::string cocoBackground;
};

// Writes the project's labelled images into outDir in that format (DatasetExporter or
// FormatExporter); returns the number of label maps written.
// outDir is new, empty, or an earlier export, and gets the whole export in one step or nothing
// (ExportDestination): no file the export did not write is ever replaced or removed.
std::size_t exportLabels(ExportFormat format, const Project& project, const std::filesystem::path& outDir,
                         const ImportProgress& progress = {}, const ExportOptions& options = {});

}  // namespace formats
}  // namespace segstudio::data
