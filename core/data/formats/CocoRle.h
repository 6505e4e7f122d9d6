#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace formats {

// COCO's run-length encoding of a binary mask, as pycocotools writes it: runs over the pixels in
// column-major order (down each column, then the next), starting with a run of zeros; "counts" is
// either that list of runs or its compressed string (each run minus the run two before it, in
// 5-bit groups offset by 48). Requirements: masks CV_8UC1, non-zero = inside.
class CocoRle {
public:
    static std::string encode(const cv::Mat& mask);
    static std::vector<std::uint32_t> runsOf(const cv::Mat& mask);
    // The runs of a compressed counts string for a mask of `pixels` pixels (height x width). Throws
    // DataError (no file: the caller names it) for a malformed string: a character outside
    // '0'..'o', a string that ends inside a count, a count of more than 7 chunks, or a run that is
    // negative, overflows 32 bits or goes past `pixels`. Runs that cover fewer pixels are returned
    // (paint() refuses them).
    static std::vector<std::uint32_t> decompress(const std::string& counts, std::uint64_t pixels);
    // Sets value into `target` where the runs say inside; std::invalid_argument when the runs do
    // not cover exactly target's pixels.
    static void paint(const std::vector<std::uint32_t>& runs, cv::Mat& target, std::uint8_t value);
};

}  // namespace formats
}  // namespace segstudio::data
