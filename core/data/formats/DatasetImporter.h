#pragma once

#include "ValueMap.h"
#include "data/project/Project.h"

#include <filesystem>
#include <functional>

namespace segstudio::data {
inline namespace formats {

// Progress: called with (done, total); return false to cancel (the import then throws
// ImportCancelled and writes nothing).
using ImportProgress = std::function<bool(std::size_t done, std::size_t total)>;

struct ImportCancelled : std::exception {
    const char* what() const noexcept override { return "import cancelled"; }
};

// Importers build a new project at projectFile, copying every label map into the project's label
// folder as a palette PNG (images stay where they are, referenced by relative path). Every label
// map is read and checked first; a bad one is an error naming it, nothing is silently dropped.
class DatasetImporter {
public:
    // CamVid/SegNet layout: train/ val/ test/ + trainannot/ valannot/ testannot/ folders, or the
    // train.txt/val.txt/test.txt pair lists when present. Annotation value `voidValue` (11 in
    // CamVid) becomes unlabelled.
    static Project importSegNetLayout(const std::filesystem::path& datasetDir, const std::filesystem::path& projectFile,
                                      const ClassSchema& schema = ClassSchema::camVid(), int voidValue = 11,
                                      const ImportProgress& progress = {});

    // An image folder + a folder of index PNGs with the same stems (Pascal-VOC style palette PNGs
    // or grey PNGs: the stored index is the class id); `voidValue` becomes unlabelled.
    static Project importIndexPngs(const std::filesystem::path& imageDir, const std::filesystem::path& labelDir,
                                   const std::filesystem::path& projectFile, const ClassSchema& schema,
                                   int voidValue = 255, const ImportProgress& progress = {});

    // The same with masks storing other values than class ids (binary 0/255 masks): each mask is
    // read as 8-bit grey and mapped to classes by `values` (ValueMap), whose classes are the schema.
    static Project importValueMappedPngs(const std::filesystem::path& imageDir, const std::filesystem::path& labelDir,
                                         const std::filesystem::path& projectFile, const ValueMap& values,
                                         const ImportProgress& progress = {});

    // A plain folder of images (recursively), all unlabelled and unassigned.
    static Project importImageFolder(const std::filesystem::path& imageDir, const std::filesystem::path& projectFile,
                                     const ClassSchema& schema, const ImportProgress& progress = {});

    // Images + colour-coded masks with the same stem; the schema's colours say which class each
    // colour is; `voidColors` are mapped to unlabelled.
    static Project importColorMasks(const std::filesystem::path& imageDir, const std::filesystem::path& maskDir,
                                    const std::filesystem::path& projectFile, const ClassSchema& schema,
                                    const std::vector<Rgb>& voidColors = {{0, 0, 0}}, const ImportProgress& progress = {});
};

}  // namespace formats
}  // namespace segstudio::data
