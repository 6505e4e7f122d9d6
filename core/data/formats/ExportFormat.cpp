#include "ExportFormat.h"

#include "data/labels/DataError.h"

#include "DatasetExporter.h"
#include "ExportDestination.h"
#include "FormatExporter.h"

#include <array>
#include <utility>

namespace segstudio::data {
inline namespace formats {

namespace {

constexpr std::array<std::pair<ExportFormat, const char*>, 6> kNames{{{ExportFormat::IndexPngs, "index-png"},
                                                                       {ExportFormat::ColourMasks, "color-masks"},
                                                                       {ExportFormat::Coco, "coco"},
                                                                       {ExportFormat::Cityscapes, "cityscapes"},
                                                                       {ExportFormat::Labelme, "labelme"},
                                                                       {ExportFormat::Cvat, "cvat"}}};

}  // namespace

std::string nameOf(ExportFormat format)
{
    for (const auto& [value, name] : kNames)
        if (value == format)
            return name;
    return {};
}

std::optional<ExportFormat> exportFormatNamed(const std::string& name)
{
    for (const auto& [value, text] : kNames)
        if (name == text)
            return value;
    return std::nullopt;
}

std::vector<ExportFormat> allExportFormats()
{
    std::vector<ExportFormat> formats;
    for (const auto& entry : kNames)
        formats.push_back(entry.first);
    return formats;
}

namespace {

std::size_t writeFormat(ExportFormat format, const Project& project, const std::filesystem::path& outDir,
                        const ImportProgress& progress, const ExportOptions& options)
{
    switch (format) {
    case ExportFormat::IndexPngs:
        return DatasetExporter::exportIndexPngs(project, outDir, progress);
    case ExportFormat::ColourMasks:
        return DatasetExporter::exportColorMasks(project, outDir, progress);
    case ExportFormat::Coco:
        return FormatExporter::exportCoco(project, outDir, progress, options.cocoBackground);
    case ExportFormat::Cityscapes:
        return FormatExporter::exportCityscapes(project, outDir, progress);
    case ExportFormat::Labelme:
        return FormatExporter::exportLabelme(project, outDir, options.labelmeTolerance, progress);
    case ExportFormat::Cvat:
        return FormatExporter::exportCvatMasks(project, outDir, progress);
    }
    return 0;
}

}  // namespace

std::size_t exportLabels(ExportFormat format, const Project& project, const std::filesystem::path& outDir,
                         const ImportProgress& progress, const ExportOptions& options)
{
    if (!options.cocoBackground.empty() && format != ExportFormat::Coco)
        throw DataError({}, "a background class is a COCO export's option, not " + nameOf(format) + "'s");
    ExportDestination destination(project, outDir, nameOf(format));
    const std::size_t written = writeFormat(format, project, destination.staging(), progress, options);
    destination.publish();
    return written;
}

}  // namespace formats
}  // namespace segstudio::data
