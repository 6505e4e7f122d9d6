#pragma once

#include "DatasetImporter.h"
#include "Project.h"

#include <filesystem>

namespace segstudio::data {

struct LabelmeImportRequest {
    std::filesystem::path folder;      // labelme JSON files (sub-folders too)
    std::filesystem::path labelsFile;  // optional labels.txt: one class a line, labelme2voc's convention
    Split split = Split::Unassigned;
};

struct LabelmeImportSummary {
    std::size_t files = 0;
    std::size_t ignoredShapes = 0;   // lines, line strips, points: they cover no area
    std::size_t embeddedImages = 0;  // written from imageData into <project>.images/
};

// labelme's JSON: polygons, rectangles and circles drawn in file order (a later shape over an
// earlier one, as labelme shows them), `__ignore__` draws unlabelled. Classes come from
// labels.txt in its order (`__ignore__` is not a class; `_background_` is, and then fills what
// no shape covers, as labelme2voc does) or, without one, from the shapes' labels in order of
// first appearance, pixels outside every shape unlabelled. An image missing beside its JSON but
// embedded as base64 is written into <project name>.images/ (removed again if the import fails).
class LabelmeImporter {
public:
    static Project import(const LabelmeImportRequest& request, const std::filesystem::path& projectFile,
                          const ImportProgress& progress = {}, LabelmeImportSummary* summary = nullptr);
};

}  // namespace segstudio::data
