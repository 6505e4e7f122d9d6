#pragma once

#include "DatasetImporter.h"
#include "data/project/Project.h"

#include <filesystem>

namespace segstudio::data {
inline namespace formats {

// Writes a project's labels in the formats other tools read; each layout is one the matching
// importer reads back (export -> import gives the same label maps: exactly for the raster formats
// and COCO's RLE, within the polygon tolerance for labelme). Class ids become dense in id order.
// Every function returns the number of label maps written and throws DataError naming the file
// and the problem.
class FormatExporter {
public:
    // <outDir>/annotations.json: one RLE annotation per class per labelled image (iscrowd 0, area,
    // bbox), categories id = class id + 1 with names and colours; file_name is the image's path
    // relative to the project folder (import with --images <project folder>).
    // background: a class left out of the categories and annotations (its pixels are the ground
    // between the objects); DataError when the project has no class of that name.
    static std::size_t exportCoco(const Project& project, const std::filesystem::path& outDir,
                                  const ImportProgress& progress = {}, const std::string& background = {});

    // Cityscapes' folders: leftImg8bit/<split>/segstudio/<name>_leftImg8bit.png (a hard link, a copy,
    // or a PNG re-encoding) and gtFine/<split>/segstudio/<name>_gtFine_labelIds.png whose values are
    // the class ids (255 unlabelled), with the class table in classes.json (the importer prefers it
    // to the official 19 classes). Unassigned images go to unassigned/.
    static std::size_t exportCityscapes(const Project& project, const std::filesystem::path& outDir,
                                        const ImportProgress& progress = {});

    // labelme: <outDir>/<name>.json per labelled image (one polygon per connected region, simplified
    // by `tolerance` pixels, drawn larger first; unlabelled holes as `__ignore__` shapes flagged
    // "hole") and labels.txt; imagePath relative to outDir, no imageData.
    static std::size_t exportLabelme(const Project& project, const std::filesystem::path& outDir,
                                     double tolerance = 0.5, const ImportProgress& progress = {});

    // CVAT "Segmentation mask 1.1": labelmap.txt (background = unlabelled, black), SegmentationClass/
    // colour masks, ImageSets/Segmentation/{train,val,test,default}.txt, JPEGImages/ (links or copies).
    static std::size_t exportCvatMasks(const Project& project, const std::filesystem::path& outDir,
                                       const ImportProgress& progress = {});
};

}  // namespace formats
}  // namespace segstudio::data
