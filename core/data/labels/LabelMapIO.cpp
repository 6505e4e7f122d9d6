#include "LabelMapIO.h"

#include "run/AtomicFile.h"
#include "DataError.h"
#include "ImageIO.h"
#include "LabelMapDeflate.h"

#include <cstring>
#include <libdeflate.h>
#include <png.h>

namespace segstudio::data {
inline namespace labels {

namespace {

// libpng reports errors through a callback; it is turned into a C++ exception here. libpng's own
// state is released by the guards below during unwinding.
struct PngFailure {
    std::string message;
};

[[noreturn]] void throwPngError(png_structp, png_const_charp message) { throw PngFailure{message}; }
void ignorePngWarning(png_structp, png_const_charp) {}

struct MemoryReader {
    const std::string* bytes;
    std::size_t offset = 0;
};

void readFromMemory(png_structp png, png_bytep out, png_size_t length)
{
    auto* reader = static_cast<MemoryReader*>(png_get_io_ptr(png));
    if (reader->offset + length > reader->bytes->size())
        throw PngFailure{"truncated PNG data"};
    std::memcpy(out, reader->bytes->data() + reader->offset, length);
    reader->offset += length;
}

struct PngReadState {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, throwPngError, ignorePngWarning);
    png_infop info = png_create_info_struct(png);
    ~PngReadState() { png_destroy_read_struct(&png, &info, nullptr); }
};

cv::Mat decodeIndexPng(const std::string& bytes, const std::filesystem::path& path)
{
    if (bytes.size() < 8 || png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, 8) != 0)
        throw DataError(path.string(), "not a PNG file");
    PngReadState state;
    png_structp png = state.png;
    png_infop info = state.info;
    MemoryReader reader{&bytes};
    try {
        png_set_read_fn(png, &reader, readFromMemory);
        png_read_info(png, info);
        const png_uint_32 width = png_get_image_width(png, info);
        const png_uint_32 height = png_get_image_height(png, info);
        const int colorType = png_get_color_type(png, info);
        const int bitDepth = png_get_bit_depth(png, info);
        if (colorType != PNG_COLOR_TYPE_GRAY && colorType != PNG_COLOR_TYPE_PALETTE)
            throw DataError(path.string(), "is a colour image, not an index label map (one class id per pixel); "
                                           "import it as a colour mask instead");
        if (bitDepth == 16)
            throw DataError(path.string(), "16-bit label maps are not supported; values must be 0..255");
        if (bitDepth < 8)
            png_set_packing(png);  // 1/2/4-bit indices become one byte each, values unchanged
        png_read_update_info(png, info);
        cv::Mat labels(int(height), int(width), CV_8UC1);
        std::vector<png_bytep> rows(height);
        for (png_uint_32 y = 0; y < height; ++y)
            rows[y] = labels.ptr<png_byte>(int(y));
        png_read_image(png, rows.data());
        return labels;
    } catch (const PngFailure& failure) {
        throw DataError(path.string(), "corrupt PNG: " + failure.message);
    }
}

void putBigEndian(unsigned char* at, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        at[i] = static_cast<unsigned char>(value >> (24 - 8 * i));
}

void appendBigEndian(std::vector<unsigned char>& out, std::uint32_t value)
{
    out.resize(out.size() + 4);
    putBigEndian(out.data() + out.size() - 4, value);
}

// Appends one PNG chunk: length, type, data, CRC over type and data.
void appendChunk(std::vector<unsigned char>& out, const char type[4], const unsigned char* data, std::size_t size)
{
    appendBigEndian(out, std::uint32_t(size));
    const std::size_t typeOffset = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data, data + size);
    appendBigEndian(out, libdeflate_crc32(0, out.data() + typeOffset, size + 4));
}

// An 8-bit palette PNG written directly: rows unfiltered (filters do not help index data), the
// image data compressed by deflateLabelRows. Label maps are written by the ten thousand on import,
// and libpng's zlib deflate was half of an import's time.
std::vector<unsigned char> encodePalettePng(const cv::Mat& labels, const ClassSchema& schema)
{
    const std::size_t rowBytes = std::size_t(labels.cols) + 1;  // filter byte + indices
    // Kept per thread: a fresh 300 KB buffer per map cost an import more in page faults than the
    // compression itself.
    thread_local std::vector<unsigned char> raw;
    raw.resize(rowBytes * std::size_t(labels.rows));
    for (int y = 0; y < labels.rows; ++y) {
        unsigned char* row = raw.data() + rowBytes * std::size_t(y);
        row[0] = 0;  // filter type None
        std::memcpy(row + 1, labels.ptr<unsigned char>(y), std::size_t(labels.cols));
    }
    const std::vector<unsigned char> idat = deflateLabelRows(raw.data(), raw.size(), rowBytes);

    unsigned char header[13] = {};
    putBigEndian(header, std::uint32_t(labels.cols));
    putBigEndian(header + 4, std::uint32_t(labels.rows));
    header[8] = 8;  // bit depth
    header[9] = 3;  // colour type: palette; compression, filter and interlace methods stay 0
    std::vector<unsigned char> palette;
    for (const Rgb& color : schema.palette())
        palette.insert(palette.end(), {color.r, color.g, color.b});

    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    std::vector<unsigned char> out(signature, signature + 8);
    out.reserve(8 + 25 + palette.size() + 12 + idat.size() + 12 + 12);
    appendChunk(out, "IHDR", header, sizeof(header));
    appendChunk(out, "PLTE", palette.data(), palette.size());
    appendChunk(out, "IDAT", idat.data(), idat.size());
    appendChunk(out, "IEND", nullptr, 0);
    return out;
}

void checkSize(const cv::Mat& mat, cv::Size expectedSize, const std::filesystem::path& path)
{
    if (expectedSize.area() > 0 && mat.size() != expectedSize)
        throw DataError(path.string(), "label map is " + std::to_string(mat.cols) + "x" + std::to_string(mat.rows)
                                           + " but its image is " + std::to_string(expectedSize.width) + "x"
                                           + std::to_string(expectedSize.height));
}

}  // namespace

cv::Mat readLabelMap(const std::filesystem::path& path, const ClassSchema& schema, cv::Size expectedSize, int voidValue)
{
    cv::Mat labels = decodeIndexPng(run::readFile(path), path);
    checkSize(labels, expectedSize, path);

    // One lookup table maps dataset values to ids and marks the values that are not allowed.
    constexpr int kInvalid = -1;
    int table[256];
    for (int value = 0; value < 256; ++value)
        table[value] = schema.contains(value) ? value : kInvalid;
    table[kUnlabelled] = kUnlabelled;
    if (voidValue >= 0 && voidValue < 256)
        table[voidValue] = kUnlabelled;

    for (int y = 0; y < labels.rows; ++y) {
        std::uint8_t* row = labels.ptr<std::uint8_t>(y);
        for (int x = 0; x < labels.cols; ++x) {
            const int mapped = table[row[x]];
            if (mapped == kInvalid)
                throw DataError(path.string(), "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") has value "
                                                   + std::to_string(row[x]) + ", which is not a class of the schema");
            row[x] = std::uint8_t(mapped);
        }
    }
    return labels;
}

void writeLabelMap(const std::filesystem::path& path, const cv::Mat& labels, const ClassSchema& schema, run::Durability durability)
{
    if (labels.empty() || labels.type() != CV_8UC1)
        throw DataError(path.string(), "a label map must be a non-empty 8-bit single-channel image");
    run::writeFileAtomically(path, encodePalettePng(labels, schema), durability);
}

std::uint32_t packRgb(const Rgb& color)
{
    return (std::uint32_t(color.r) << 16) | (std::uint32_t(color.g) << 8) | color.b;
}

std::map<std::uint32_t, std::uint8_t> colorTable(const ClassSchema& schema)
{
    std::map<std::uint32_t, std::uint8_t> table;
    for (const LabelClass& labelClass : schema.classes())
        table[packRgb(labelClass.color)] = std::uint8_t(labelClass.id);
    return table;
}

cv::Mat readColorMask(const std::filesystem::path& path, const std::map<std::uint32_t, std::uint8_t>& colorToId,
                      cv::Size expectedSize)
{
    const cv::Mat rgb = readImageRgb(path);
    checkSize(rgb, expectedSize, path);
    cv::Mat labels(rgb.size(), CV_8UC1);
    // Masks are runs of few colours: remember the last lookup to skip most map searches.
    std::uint32_t lastColor = 0xFFFFFFFF;
    std::uint8_t lastId = kUnlabelled;
    for (int y = 0; y < rgb.rows; ++y) {
        const cv::Vec3b* in = rgb.ptr<cv::Vec3b>(y);
        std::uint8_t* out = labels.ptr<std::uint8_t>(y);
        for (int x = 0; x < rgb.cols; ++x) {
            const std::uint32_t color = packRgb({in[x][0], in[x][1], in[x][2]});
            if (color != lastColor) {
                const auto it = colorToId.find(color);
                if (it == colorToId.end()) {
                    char hex[8];
                    std::snprintf(hex, sizeof(hex), "#%06X", color);
                    throw DataError(path.string(), std::string("colour ") + hex + " at pixel (" + std::to_string(x) + ", "
                                                       + std::to_string(y) + ") is not a class colour");
                }
                lastColor = color;
                lastId = it->second;
            }
            out[x] = lastId;
        }
    }
    return labels;
}

cv::Mat colorize(const cv::Mat& labels, const ClassSchema& schema)
{
    const std::vector<Rgb> palette = schema.palette();
    cv::Mat rgb(labels.size(), CV_8UC3);
    for (int y = 0; y < labels.rows; ++y) {
        const std::uint8_t* in = labels.ptr<std::uint8_t>(y);
        cv::Vec3b* out = rgb.ptr<cv::Vec3b>(y);
        for (int x = 0; x < labels.cols; ++x) {
            const Rgb& color = palette[in[x]];
            out[x] = cv::Vec3b(color.r, color.g, color.b);
        }
    }
    return rgb;
}

}  // namespace labels
}  // namespace segstudio::data
