#pragma once

#include "DatasetImporter.h"
#include "data/project/Project.h"

#include <filesystem>
#include <string>

namespace segstudio::data {
inline namespace formats {

// What a COCO import reads: the annotation file, the folder its file_name fields are relative to,
// and for a panoptic file the folder of its segment PNGs (default: beside the JSON, named after it,
// as COCO ships panoptic_val2017.json with panoptic_val2017/).
struct CocoImportRequest {
    std::filesystem::path annotations;
    std::filesystem::path images;
    std::filesystem::path panopticMasks;
    // Pixels no annotation covers: unlabelled (empty), or a class of this name put first in the
    // schema (instances files label objects, not the ground between them).
    std::string backgroundClass;
    Split split = Split::Unassigned;
};

// COCO instances (polygons, RLE strings and RLE run lists, iscrowd included), COCO-Stuff (the same
// file format) and COCO panoptic (segments_info + PNGs whose colour R + 256 G + 65536 B is the
// segment id). Categories become the class schema, in id order with dense ids, names and (panoptic)
// colours kept; overlapping instances are drawn larger first so the smaller one stays on top, as
// COCO's own tools show them; images without annotations stay unlabelled. The JSON is read once;
// images are never decoded (their header is checked against the file's width and height).
// Errors name the file and the record: "instances.json: annotation 1842: polygon with 2 points".
class CocoImporter {
public:
    static Project import(const CocoImportRequest& request, const std::filesystem::path& projectFile,
                          const ImportProgress& progress = {});
};

}  // namespace formats
}  // namespace segstudio::data
