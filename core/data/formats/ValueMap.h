#pragma once

#include "data/labels/ClassSchema.h"

#include <opencv2/core.hpp>

#include <array>
#include <filesystem>
#include <string>

namespace segstudio::data {
inline namespace formats {

// Masks that store other numbers than class ids (binary 0/255 masks of microscopy or medical
// sets, 0/1/2 trimaps): "0=Membrane,255=Cell" names the class of each stored value, the classes
// taking ids 0, 1, ... in that order (a value named "unlabelled" stays unlabelled). Import with
// `import index-png --values` (docs/FORMATS.md).
// Guarantees: parse() and apply() throw DataError naming the entry, or the file and the value
// the map lacks; nothing is guessed.
class ValueMap {
public:
    static ValueMap parse(const std::string& text);

    const ClassSchema& schema() const { return m_schema; }
    // The stored values of one mask (CV_8UC1) as class ids.
    cv::Mat apply(const cv::Mat& stored, const std::filesystem::path& file) const;

private:
    ClassSchema m_schema;
    std::array<int, 256> m_classOf{};  // -1: a value the map does not name
};

}  // namespace formats
}  // namespace segstudio::data
