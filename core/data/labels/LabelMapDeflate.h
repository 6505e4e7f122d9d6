#pragma once

#include <cstddef>
#include <vector>

namespace segstudio::data {
inline namespace labels {

// Compresses the rows of an index PNG (each row: a filter byte, then one byte per pixel) into a
// zlib stream, the content of the PNG's IDAT chunk.
//
// Why not a general compressor: imports write label maps by the ten thousand, and zlib and
// libdeflate spend most of an import scanning them for matches. A label map's only redundancy is
// runs of one class along a row and rows that repeat the row above, so this encoder looks for
// exactly those two matches (distance 1 and distance stride) with word-wide comparisons and
// writes them with deflate's fixed Huffman codes: about 5x the speed of zlib's run-length strategy
// (0.09-0.10 against 0.45-0.54 ms a CamVid map), for files 16-39 % larger (docs/BENCHMARKS.md).
// Any inflate reads the result.
std::vector<unsigned char> deflateLabelRows(const unsigned char* rows, std::size_t size, std::size_t stride);

}  // namespace labels
}  // namespace segstudio::data
