#include "ImageHeader.h"

#include "DataError.h"
#include "ImageIO.h"

#include <array>
#include <cstring>
#include <fstream>
#include <optional>

namespace segstudio::data {
inline namespace labels {

namespace {

unsigned bigEndian(const unsigned char* bytes, int count)
{
    unsigned value = 0;
    for (int i = 0; i < count; ++i)
        value = (value << 8) | bytes[i];
    return value;
}

// PNG: the 8-byte signature, then the IHDR chunk (length, "IHDR", width, height), big-endian.
std::optional<cv::Size> pngSize(std::istream& stream)
{
    std::array<unsigned char, 24> head{};
    if (!stream.read(reinterpret_cast<char*>(head.data()), head.size()))
        return std::nullopt;
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (std::memcmp(head.data(), signature, 8) != 0 || std::memcmp(head.data() + 12, "IHDR", 4) != 0)
        return std::nullopt;
    return cv::Size(int(bigEndian(head.data() + 16, 4)), int(bigEndian(head.data() + 20, 4)));
}

// JPEG: segments after SOI until a start-of-frame marker (C0..CF but C4, C8, CC), whose payload is
// precision, height, width.
std::optional<cv::Size> jpegSize(std::istream& stream)
{
    unsigned char soi[2];
    if (!stream.read(reinterpret_cast<char*>(soi), 2) || soi[0] != 0xff || soi[1] != 0xd8)
        return std::nullopt;
    for (;;) {
        unsigned char marker[4];
        if (!stream.read(reinterpret_cast<char*>(marker), 2) || marker[0] != 0xff)
            return std::nullopt;
        if (marker[1] == 0xff) {  // fill byte
            stream.seekg(-1, std::ios::cur);
            continue;
        }
        if (!stream.read(reinterpret_cast<char*>(marker + 2), 2))
            return std::nullopt;
        const unsigned length = bigEndian(marker + 2, 2);
        const unsigned char type = marker[1];
        const bool startOfFrame = type >= 0xc0 && type <= 0xcf && type != 0xc4 && type != 0xc8 && type != 0xcc;
        if (startOfFrame) {
            unsigned char frame[5];
            if (!stream.read(reinterpret_cast<char*>(frame), 5))
                return std::nullopt;
            return cv::Size(int(bigEndian(frame + 3, 2)), int(bigEndian(frame + 1, 2)));
        }
        if (length < 2 || !stream.seekg(length - 2, std::ios::cur))
            return std::nullopt;
    }
}

}  // namespace

cv::Size readImageSize(const std::filesystem::path& path)
{
    std::ifstream stream(path, std::ios::binary);
    if (!stream)
        throw DataError(path.string(), "image not found or not readable");
    if (auto size = pngSize(stream); size && size->area() > 0)
        return *size;
    stream.clear();
    stream.seekg(0);
    if (auto size = jpegSize(stream); size && size->area() > 0)
        return *size;
    return readImageRgb(path).size();  // another format: decode it (DataError names the file)
}

}  // namespace labels
}  // namespace segstudio::data
