#include "CocoRle.h"

#include "data/labels/DataError.h"

#include <stdexcept>

namespace segstudio::data {
inline namespace formats {

namespace {

// pycocotools keeps counts as 32-bit uints and writes each as its difference from the count two
// before, in 5-bit chunks whose last carries the sign in bit 4: k chunks hold the signed values
// -2^(5k-1) .. 2^(5k-1) - 1. A difference of two 32-bit counts needs 33 signed bits, so 7 chunks
// (35 bits) hold every count of a real mask, and with at most 7 no shift below reaches 64 bits
// (undefined behaviour): a longer count can only come from a malformed or hostile string.
constexpr int kMaxChunks = 7;

std::string countName(std::size_t index)
{
    return "RLE count " + std::to_string(index);
}

// One count as written (a difference after the first three), read from counts[p...]; p moves on.
long long readCount(const std::string& counts, std::size_t& p, std::size_t index)
{
    long long x = 0;
    for (int k = 0;; ++k) {
        if (k == kMaxChunks)
            throw DataError({}, countName(index) + " has more than " + std::to_string(kMaxChunks) +
                                    " 5-bit chunks, more than any 32-bit count needs: the counts string is malformed");
        if (p >= counts.size())
            throw DataError({}, "the counts string ends inside " + countName(index));
        const int c = int(counts[p++]) - 48;
        if (c < 0 || c > 63)
            throw DataError({}, countName(index) + " holds a character outside '0'..'o'");
        x |= static_cast<long long>(c & 0x1f) << (5 * k);
        if (!(c & 0x20)) {
            if (c & 0x10)
                x |= static_cast<long long>(~0ULL << (5 * (k + 1)));  // sign-extend (no shift of a negative)
            return x;
        }
    }
}

// The decoded run, refused when it is negative, overflows pycocotools' 32-bit counts or runs past
// the mask's pixels (what a later paint would otherwise be asked to write).
std::uint32_t checkedRun(long long x, std::size_t index, std::uint64_t covered, std::uint64_t pixels)
{
    if (x < 0)
        throw DataError({}, countName(index) + " decodes to a negative run (" + std::to_string(x) + ")");
    if (x > 0xffffffffLL)
        throw DataError({}, countName(index) + " decodes to a run of " + std::to_string(x) +
                                " pixels, more than a 32-bit count holds");
    if (std::uint64_t(x) > pixels - covered)
        throw DataError({}, countName(index) + " decodes to a run of " + std::to_string(x) + " pixels after " +
                                std::to_string(covered) + ": past the mask's " + std::to_string(pixels) + " pixels");
    return std::uint32_t(x);
}

}  // namespace

std::vector<std::uint32_t> CocoRle::runsOf(const cv::Mat& mask)
{
    std::vector<std::uint32_t> runs;
    bool inside = false;
    std::uint32_t length = 0;
    for (int x = 0; x < mask.cols; ++x)
        for (int y = 0; y < mask.rows; ++y) {
            const bool pixel = mask.at<std::uint8_t>(y, x) != 0;
            if (pixel != inside) {
                runs.push_back(length);
                length = 0;
                inside = pixel;
            }
            ++length;
        }
    runs.push_back(length);
    return runs;
}

std::string CocoRle::encode(const cv::Mat& mask)
{
    const std::vector<std::uint32_t> runs = runsOf(mask);
    std::string text;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        long long x = runs[i];
        if (i > 2)
            x -= runs[i - 2];
        for (bool more = true; more;) {
            long long c = x & 0x1f;
            x >>= 5;  // arithmetic shift: a negative difference keeps its sign bits
            more = (c & 0x10) ? x != -1 : x != 0;
            if (more)
                c |= 0x20;
            text.push_back(char(c + 48));
        }
    }
    return text;
}

std::vector<std::uint32_t> CocoRle::decompress(const std::string& counts, std::uint64_t pixels)
{
    std::vector<std::uint32_t> runs;
    std::uint64_t covered = 0;
    std::size_t p = 0;
    while (p < counts.size()) {
        long long x = readCount(counts, p, runs.size());
        if (runs.size() > 2)
            x += runs[runs.size() - 2];  // |x| < 2^35 and the run < 2^32: no overflow in 64 bits
        const std::uint32_t run = checkedRun(x, runs.size(), covered, pixels);
        runs.push_back(run);
        covered += run;
    }
    return runs;
}

void CocoRle::paint(const std::vector<std::uint32_t>& runs, cv::Mat& target, std::uint8_t value)
{
    const std::size_t rows = std::size_t(target.rows);
    const std::size_t total = rows * std::size_t(target.cols);
    std::size_t position = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (position + runs[i] > total)
            throw std::invalid_argument("RLE runs cover more than the image's " + std::to_string(total) + " pixels");
        if (i % 2 == 1)
            for (std::size_t p = position; p < position + runs[i]; ++p)
                target.at<std::uint8_t>(int(p % rows), int(p / rows)) = value;
        position += runs[i];
    }
    if (position != total)
        throw std::invalid_argument("RLE runs cover " + std::to_string(position) + " of the image's " +
                                    std::to_string(total) + " pixels");
}

}  // namespace formats
}  // namespace segstudio::data
