#pragma once

#include "DatasetImporter.h"
#include "data/project/Project.h"

#include <filesystem>

namespace segstudio::data {
inline namespace formats {

struct LabelmeImportRequest {
    std::filesystem::path folder;      // labelme JSON files (sub-folders too)
    std::filesystem::path labelsFile;  // optional labels.txt: one class a line, labelme2voc's convention
    Split split = Split::Unassigned;
};

struct LabelmeImportSummary {
    std::size_t files = 0;
    std::size_t ignoredShapes = 0;   // masks and unknown shape types: not drawn
    std::size_t embeddedImages = 0;  // written from imageData into <project>.images/
};

// labelme's JSON: polygons, rectangles, circles, lines, line strips and points drawn in file order
// (a later shape over an earlier one) exactly as labelme2voc draws them: labelme's shape_to_mask on
// Pillow 9.4's ImageDraw (PilDraw), lines 10 px wide, points discs of radius 5; `__ignore__` draws
// unlabelled; `mask` shapes are counted, not drawn. Every file is checked against its image before
// a label map is allocated (at the image's own size): imageWidth/imageHeight must be the image's
// size, every point within a pixel of the image, a circle's radius at most the image's diagonal;
// errors name the file and the shape ("a.json: shape 3 ('car'): point (5000, 5000) is outside the
// 640x480 image"). Classes come from labels.txt in its order (`__ignore__` is not a class;
// `_background_` is, and then fills what no shape covers, as labelme2voc does) or, without one,
// from the shapes' labels in order of first appearance, pixels outside every shape unlabelled. An
// image missing beside its JSON but embedded as base64 is written into <project name>.images/
// (removed again if the import fails).
class LabelmeImporter {
public:
    static Project import(const LabelmeImportRequest& request, const std::filesystem::path& projectFile,
                          const ImportProgress& progress = {}, LabelmeImportSummary* summary = nullptr);
};

}  // namespace formats
}  // namespace segstudio::data
