#include "ThumbnailRenderer.h"

#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"
#include "data/labels/LabelOverlay.h"

#include <QCryptographicHash>

#include <algorithm>
#include <vector>

namespace segstudio::ui::browser {

namespace {

// Bump when the rendering changes so old disk-cache files are not reused.
constexpr int kRenderVersion = 1;
constexpr double kOverlayOpacity = 0.5;

QByteArray fileStamp(const std::filesystem::path& path)
{
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error)
        return QByteArrayLiteral("-");
    const auto time = std::filesystem::last_write_time(path, error).time_since_epoch().count();
    return QByteArray::number(qulonglong(size)) + '@' + QByteArray::number(qlonglong(time));
}

// The class ids and colours an overlay is drawn with, by id: a recoloured class must not be served
// the thumbnail of its old colour from the disk cache.
QByteArray paletteStamp(const data::ClassSchema& schema)
{
    std::vector<data::LabelClass> classes = schema.classes();
    std::sort(classes.begin(), classes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    QByteArray text;
    for (const data::LabelClass& labelClass : classes)
        text += QByteArray::number(labelClass.id) + '=' + QByteArray::number(labelClass.color.r) + ',' +
                QByteArray::number(labelClass.color.g) + ',' + QByteArray::number(labelClass.color.b) + ';';
    return text;
}

}  // namespace

QImage ThumbnailRenderer::render(const std::filesystem::path& image, const std::filesystem::path& labelMap,
                                 const data::ClassSchema& schema, QSize size, bool overlay)
{
    const cv::Mat rgb = data::readImageRgb(image);
    std::error_code error;
    const bool withLabels = overlay && !labelMap.empty() && std::filesystem::exists(labelMap, error);
    const cv::Mat labels = withLabels ? data::readLabelMap(labelMap, schema, rgb.size()) : cv::Mat();
    const cv::Mat small = data::thumbnailOf(rgb, labels, schema, size.width(), size.height(), kOverlayOpacity);
    QImage result(small.data, small.cols, small.rows, int(small.step), QImage::Format_RGB888);
    return result.copy();
}

QString ThumbnailRenderer::cacheKey(const std::filesystem::path& image, const std::filesystem::path& labelMap,
                                    const data::ClassSchema& schema, QSize size, bool overlay)
{
    std::error_code error;
    if (!std::filesystem::exists(image, error))
        return {};
    QByteArray text = QByteArray::fromStdString(std::filesystem::absolute(image, error).string());
    text += '|' + fileStamp(image) + '|' + QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height());
    text += '|' + QByteArray::number(kRenderVersion);
    if (overlay)
        text += "|overlay|" + QByteArray::fromStdString(labelMap.string()) + '|' + fileStamp(labelMap) + '|' +
                paletteStamp(schema);
    return QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha1).toHex());
}

}  // namespace segstudio::ui::browser
