#include "CocoRle.h"

#include <stdexcept>

namespace segstudio::data {

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

std::vector<std::uint32_t> CocoRle::decompress(const std::string& counts)
{
    std::vector<std::uint32_t> runs;
    std::size_t p = 0;
    while (p < counts.size()) {
        long long x = 0;
        int k = 0;
        for (bool more = true; more; ++k) {
            if (p >= counts.size())
                throw std::invalid_argument("RLE counts end inside a run");
            const int c = int(counts[p++]) - 48;
            if (c < 0 || c > 63)
                throw std::invalid_argument("RLE counts hold a character outside '0'..'o'");
            x |= static_cast<long long>(c & 0x1f) << (5 * k);
            more = c & 0x20;
            if (!more && (c & 0x10))
                x |= static_cast<long long>(~0ULL << (5 * (k + 1)));  // sign-extend (no shift of a negative)
        }
        if (runs.size() > 2)
            x += runs[runs.size() - 2];
        if (x < 0)
            throw std::invalid_argument("RLE counts decode to a negative run");
        runs.push_back(std::uint32_t(x));
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

}  // namespace segstudio::data
