#include "ImageIO.h"

#include "run/AtomicFile.h"
#include "DataError.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include <utility>

namespace segstudio::data {
inline namespace labels {

namespace {

// The file's bytes decoded by OpenCV with `flags`; DataError naming the file on any failure.
cv::Mat decodeImage(const std::filesystem::path& path, int flags)
{
    const std::string bytes = run::readFile(path);
    if (bytes.empty())
        throw DataError(path.string(), "file is empty");
    const cv::Mat encoded(1, int(bytes.size()), CV_8UC1, const_cast<char*>(bytes.data()));
    cv::Mat decoded;
    try {
        decoded = cv::imdecode(encoded, flags);
    } catch (const cv::Exception& error) {
        throw DataError(path.string(), std::string("cannot decode the image: ") + error.what());
    }
    if (decoded.empty())
        throw DataError(path.string(), "not a readable image (corrupt, truncated or an unsupported format)");
    return decoded;
}

}  // namespace

cv::Mat readImageRgb(const std::filesystem::path& path)
{
    // The pixels as stored, whatever the EXIF orientation says (issue 47.4): a label map is made
    // for the stored grid, and the header that sizes it (readImageSize) does not rotate either.
    // One convention for the whole program, as dataset tools keep it (docs/FORMATS.md).
    cv::Mat image = decodeImage(path, cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);
    // BGR to RGB in place, rows in parallel: no second buffer (36 MB for a 12 MP image), and the
    // editor's open, the floor of which is this decode, stays at the decoder's own cost.
    cv::parallel_for_(cv::Range(0, image.rows), [&image](const cv::Range& rows) {
        for (int y = rows.start; y < rows.end; ++y) {
            auto* pixel = image.ptr<cv::Vec3b>(y);
            for (int x = 0; x < image.cols; ++x)
                std::swap(pixel[x][0], pixel[x][2]);
        }
    });
    return image;
}

void writeImageRgb(const std::filesystem::path& path, const cv::Mat& rgb, run::Durability durability)
{
    if (rgb.empty() || rgb.type() != CV_8UC3)
        throw DataError(path.string(), "only 8-bit RGB images can be written");
    cv::Mat bgr;
    cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
    std::vector<unsigned char> bytes;
    const std::string extension = path.extension().string().empty() ? ".png" : path.extension().string();
    if (!cv::imencode(extension, bgr, bytes))
        throw DataError(path.string(), "cannot encode as " + extension);
    run::writeFileAtomically(path, bytes, durability);
}

void writeImageGray(const std::filesystem::path& path, const cv::Mat& gray, run::Durability durability)
{
    if (gray.empty() || gray.type() != CV_8UC1)
        throw DataError(path.string(), "only 8-bit single-channel maps can be written as grey images");
    std::vector<unsigned char> bytes;
    if (!cv::imencode(".png", gray, bytes))
        throw DataError(path.string(), "cannot encode as PNG");
    run::writeFileAtomically(path, bytes, durability);
}

cv::Mat readImageGray(const std::filesystem::path& path, cv::Size expectedSize)
{
    const cv::Mat decoded = decodeImage(path, cv::IMREAD_UNCHANGED);
    if (decoded.type() != CV_8UC1)
        throw DataError(path.string(), "not an 8-bit grey map");
    if (!expectedSize.empty() && decoded.size() != expectedSize)
        throw DataError(path.string(), "is " + std::to_string(decoded.cols) + "x" + std::to_string(decoded.rows) + ", expected " +
                                           std::to_string(expectedSize.width) + "x" + std::to_string(expectedSize.height));
    return decoded;
}

}  // namespace labels
}  // namespace segstudio::data
