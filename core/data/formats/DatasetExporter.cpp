#include "DatasetExporter.h"

#include "run/AtomicFile.h"
#include "data/labels/DataError.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"

#include <nlohmann/json.hpp>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;

namespace {

void writeClassFiles(const ClassSchema& schema, const fs::path& outDir)
{
    run::writeFileAtomically(outDir / "classes.json", nlohmann::json{{"classes", schema.toJson()}}.dump(2) + "\n");
    std::string names;
    for (const LabelClass& labelClass : schema.classes())
        names += std::to_string(labelClass.id) + " " + labelClass.name + "\n";
    run::writeFileAtomically(outDir / "classes.txt", names);
}

template <typename WriteOne>
std::size_t exportLabelled(const Project& project, const fs::path& outDir, const char* subDir,
                           const ImportProgress& progress, WriteOne writeOne)
{
    fs::create_directories(outDir / subDir);
    writeClassFiles(project.schema(), outDir);
    std::size_t exported = 0;
    for (std::size_t i = 0; i < project.size(); ++i) {
        const fs::path source = project.labelMapPath(i);
        if (fs::exists(source)) {
            const cv::Mat labels = readLabelMap(source, project.schema());
            writeOne(outDir / subDir / project.entry(i).labelMap, labels);
            ++exported;
        }
        if (progress && !progress(i + 1, project.size()))
            throw ImportCancelled();
    }
    run::syncFolder(outDir);
    return exported;
}

}  // namespace

std::size_t DatasetExporter::exportIndexPngs(const Project& project, const fs::path& outDir, const ImportProgress& progress)
{
    return exportLabelled(project, outDir, "labels", progress, [&](const fs::path& target, const cv::Mat& labels) {
        writeLabelMap(target, labels, project.schema(), run::Durability::Deferred);
    });
}

std::size_t DatasetExporter::exportColorMasks(const Project& project, const fs::path& outDir, const ImportProgress& progress)
{
    return exportLabelled(project, outDir, "masks", progress, [&](const fs::path& target, const cv::Mat& labels) {
        writeImageRgb(target, colorize(labels, project.schema()), run::Durability::Deferred);
    });
}

}  // namespace formats
}  // namespace segstudio::data
