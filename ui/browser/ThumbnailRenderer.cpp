#include "ThumbnailRenderer.h"

#include "data/ImageIO.h"
#include "data/LabelMapIO.h"
#include "data/LabelOverlay.h"

#include <QCryptographicHash>

namespace segstudio::ui {

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
                                    QSize size, bool overlay)
{
    std::error_code error;
    if (!std::filesystem::exists(image, error))
        return {};
    QByteArray text = QByteArray::fromStdString(std::filesystem::absolute(image, error).string());
    text += '|' + fileStamp(image) + '|' + QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height());
    text += '|' + QByteArray::number(kRenderVersion);
    if (overlay)
        text += "|overlay|" + QByteArray::fromStdString(labelMap.string()) + '|' + fileStamp(labelMap);
    return QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha1).toHex());
}

}  // namespace segstudio::ui
