#include "LabelMapDeflate.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <libdeflate.h>

namespace segstudio::data {
inline namespace labels {

namespace {

constexpr std::size_t kMinMatch = 3;
constexpr std::size_t kMaxMatch = 258;
constexpr std::size_t kMaxDistance = 32768;

// A symbol as written: its Huffman code already bit-reversed (deflate sends codes most
// significant bit first into a least-significant-first stream), and the code's length.
struct Code {
    std::uint32_t bits = 0;
    int length = 0;
};

std::uint32_t reversed(std::uint32_t code, int length)
{
    std::uint32_t result = 0;
    for (int i = 0; i < length; ++i)
        result |= ((code >> i) & 1u) << (length - 1 - i);
    return result;
}

// The fixed literal/length code of RFC 1951, 3.2.6.
std::array<Code, 288> fixedLiteralCodes()
{
    std::array<Code, 288> codes{};
    for (std::uint32_t symbol = 0; symbol < 288; ++symbol) {
        if (symbol < 144)
            codes[symbol] = {reversed(0x30 + symbol, 8), 8};
        else if (symbol < 256)
            codes[symbol] = {reversed(0x190 + symbol - 144, 9), 9};
        else if (symbol < 280)
            codes[symbol] = {reversed(symbol - 256, 7), 7};
        else
            codes[symbol] = {reversed(0xC0 + symbol - 280, 8), 8};
    }
    return codes;
}

// A match length or distance as written: symbol code followed by its extra bits, merged.
struct LengthCode {
    std::uint32_t bits = 0;
    int length = 0;
};

constexpr std::uint16_t kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                           31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                           2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::uint16_t kDistanceBase[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                             193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::uint8_t kDistanceExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                             6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

std::array<LengthCode, kMaxMatch + 1> lengthCodes(const std::array<Code, 288>& literal)
{
    std::array<LengthCode, kMaxMatch + 1> codes{};
    for (std::size_t length = kMinMatch; length <= kMaxMatch; ++length) {
        int index = 28;
        while (kLengthBase[index] > length)
            --index;
        const Code& code = literal[257 + std::size_t(index)];
        codes[length] = {code.bits | (std::uint32_t(length - kLengthBase[index]) << code.length),
                         code.length + kLengthExtra[index]};
    }
    return codes;
}

// Distance codes of the fixed code are the 5-bit code numbers themselves.
LengthCode distanceCode(std::size_t distance)
{
    int index = 29;
    while (kDistanceBase[index] > distance)
        --index;
    const std::uint32_t code = reversed(std::uint32_t(index), 5);
    return {code | (std::uint32_t(distance - kDistanceBase[index]) << 5), 5 + kDistanceExtra[index]};
}

class BitWriter {
public:
    explicit BitWriter(std::vector<unsigned char>& out) : m_out(out) {}

    void put(std::uint32_t bits, int length)  // length <= 32
    {
        m_buffer |= std::uint64_t(bits) << m_count;
        m_count += length;
        while (m_count >= 8) {
            m_out.push_back(static_cast<unsigned char>(m_buffer));
            m_buffer >>= 8;
            m_count -= 8;
        }
    }

    void flush()
    {
        if (m_count > 0)
            m_out.push_back(static_cast<unsigned char>(m_buffer));
        m_buffer = 0;
        m_count = 0;
    }

private:
    std::vector<unsigned char>& m_out;
    std::uint64_t m_buffer = 0;
    int m_count = 0;
};

// How many bytes from `at` equal those `distance` back, up to `limit`; eight at a time.
std::size_t matchLength(const unsigned char* at, std::size_t distance, std::size_t limit)
{
    const unsigned char* from = at - distance;
    std::size_t length = 0;
    while (length + 8 <= limit) {
        std::uint64_t a;
        std::uint64_t b;
        std::memcpy(&a, at + length, 8);
        std::memcpy(&b, from + length, 8);
        if (a != b)
            return length + std::size_t(__builtin_ctzll(a ^ b) / 8);  // little-endian: first differing byte
        length += 8;
    }
    while (length < limit && at[length] == from[length])
        ++length;
    return length;
}

}  // namespace

std::vector<unsigned char> deflateLabelRows(const unsigned char* rows, std::size_t size, std::size_t stride)
{
    static const std::array<Code, 288> literal = fixedLiteralCodes();
    static const std::array<LengthCode, kMaxMatch + 1> lengths = lengthCodes(literal);
    const LengthCode runDistance = distanceCode(1);
    const bool rowsMatchable = stride >= 1 && stride <= kMaxDistance;
    const LengthCode rowDistance = rowsMatchable ? distanceCode(stride) : LengthCode{};

    std::vector<unsigned char> out{0x78, 0x01};  // zlib header: deflate, 32 KB window, fastest
    out.reserve(size / 16 + 64);
    BitWriter writer(out);
    writer.put(0b011, 3);  // the final block, fixed Huffman codes (BTYPE 01, sent low bit first)
    std::size_t at = 0;
    while (at < size) {
        const std::size_t limit = std::min(kMaxMatch, size - at);
        const std::size_t run = at >= 1 ? matchLength(rows + at, 1, limit) : 0;
        const std::size_t above = rowsMatchable && at >= stride ? matchLength(rows + at, stride, limit) : 0;
        const std::size_t best = std::max(run, above);
        if (best < kMinMatch) {
            const Code& code = literal[rows[at]];
            writer.put(code.bits, code.length);
            ++at;
            continue;
        }
        writer.put(lengths[best].bits, lengths[best].length);
        const LengthCode& distance = run >= above ? runDistance : rowDistance;  // on a tie the run: 8 bits shorter
        writer.put(distance.bits, distance.length);
        at += best;
    }
    writer.put(literal[256].bits, literal[256].length);  // end of block
    writer.flush();
    const std::uint32_t adler = libdeflate_adler32(1, rows, size);
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<unsigned char>(adler >> shift));
    return out;
}

}  // namespace labels
}  // namespace segstudio::data
