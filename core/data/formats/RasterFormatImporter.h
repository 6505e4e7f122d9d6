#pragma once

#include "DatasetImporter.h"
#include "data/project/Project.h"

#include <filesystem>

namespace segstudio::data {
inline namespace formats {

// The formats whose labels are already pictures, one per image: each reads its own folder layout
// and class table, then every label map through ImportJob (label PNGs decoded, images only their
// header).
class RasterFormatImporter {
public:
    // Cityscapes: leftImg8bit/{train,val,test}/<city>/<name>_leftImg8bit.png with
    // gtFine/<split>/<city>/<name>_gtFine_labelIds.png (or _labelTrainIds.png when there are no
    // labelIds): the 19 training classes with their official names and colours, every other id
    // (and the test split's all-zero maps) unlabelled; splits from the folders.
    static Project importCityscapes(const std::filesystem::path& root, const std::filesystem::path& projectFile,
                                    const ImportProgress& progress = {});

    // Mapillary Vistas v1.2 (config.json, training/labels/) or v2.0 (config_v2.0.json,
    // training/v2.0/labels/): names and colours from the config, its "unlabeled" class unlabelled;
    // training -> train, validation -> val, testing (images only) -> test.
    static Project importMapillary(const std::filesystem::path& root, const std::filesystem::path& projectFile,
                                   const ImportProgress& progress = {});

    // CVAT "Segmentation mask 1.1": labelmap.txt (name:r,g,b:parts:actions), SegmentationClass/*.png
    // colour masks, ImageSets/Segmentation/<list>.txt (train/val/test lists give splits), images
    // from JPEGImages/ or imageDir. "background" is unlabelled.
    static Project importCvatMasks(const std::filesystem::path& folder, const std::filesystem::path& projectFile,
                                   const std::filesystem::path& imageDir = {}, const ImportProgress& progress = {});
};

}  // namespace formats
}  // namespace segstudio::data
